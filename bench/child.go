package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

// childEnv names the environment variable that turns a benchmark binary
// into a child server: its value is "<sdk>:<era>".
const childEnv = "GOMCP_BENCH_CHILD"

// RunChildIfAsked serves as a child server and reports true if the process
// was started by StartChild; call it first in TestMain and exit with the
// returned code if it reports true. A child serves the named SDK's
// streamable HTTP handler on 127.0.0.1, prints its URL on stdout and exits
// when its stdin closes, so it never outlives its parent.
func RunChildIfAsked() (asked bool, code int) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return false, 0
	}
	if err := serveChild(spec); err != nil {
		fmt.Fprintln(os.Stderr, "bench child:", err)
		return true, 1
	}
	return true, 0
}

func serveChild(spec string) error {
	name, eraName, _ := strings.Cut(spec, ":")
	era := Legacy
	if eraName == Modern.String() {
		era = Modern
	}
	var sdk SDK
	for _, s := range SDKs() {
		if s.Name() == name {
			sdk = s
		}
	}
	if sdk == nil {
		return fmt.Errorf("unknown SDK %q", name)
	}
	srv, err := sdk.NewServer()
	if err != nil {
		return err
	}
	h, err := srv.Handler(era)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or dies
	hs.Close()
	return srv.Close()
}

// StartChild starts a copy of the running benchmark binary serving sdk's
// handler in era and returns its URL. stop ends the child and waits for it.
// The benchmark binary's TestMain must call RunChildIfAsked.
func StartChild(sdk SDK, era Era) (url string, stop func() error, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+sdk.Name()+":"+era.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() error {
		stdin.Close()
		err := cmd.Wait()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf("bench child %s: %w", sdk.Name(), err)
		}
		return err
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- strings.TrimSpace(line)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url = <-lines:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		stop()
		return "", nil, errors.New("bench child: no URL within 30s")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		stop()
		return "", nil, fmt.Errorf("bench child: got %q instead of a URL", url)
	}
	return url, stop, nil
}
