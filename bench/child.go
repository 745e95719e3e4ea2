package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// childEnv names the environment variable that turns a benchmark binary
// into a child server: its value is "<target>:<era>".
const childEnv = "GOMCP_BENCH_CHILD"

// childProfileEnv names the environment variable that makes a child server
// write a CPU profile of its whole life to the file it names, for looking
// at where a benchmark's server time goes (go tool pprof).
const childProfileEnv = "GOMCP_BENCH_CHILD_CPUPROFILE"

// childHeapProfileEnv names the environment variable that makes a child
// server write a heap profile to the file it names each time it answers
// MemPath, for looking at what its open streams hold (go tool pprof).
const childHeapProfileEnv = "GOMCP_BENCH_CHILD_HEAPPROFILE"

// startCPUProfile starts a CPU profile written to path, and returns the
// function that ends it.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// CeilingName is the target name of the Ceiling handler, next to the SDKs'
// names.
const CeilingName = "ceiling"

// CPUPath is the path on which a child server answers GET with the CPU time
// (user and system) its process has used so far, in nanoseconds, as a
// decimal number. Every other path goes to the served handler.
const CPUPath = "/cpu"

// RunChildIfAsked serves as a child server and reports true if the process
// was started by StartChild; call it first in TestMain and exit with the
// returned code if it reports true. A child serves the named target's
// streamable HTTP handler on 127.0.0.1, prints its URL on stdout and exits
// when its stdin closes, so it never outlives its parent.
func RunChildIfAsked() (asked bool, code int) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		return false, 0
	}
	if os.Getenv(childHeapProfileEnv) != "" {
		runtime.MemProfileRate = 1
	}
	if err := serveChild(spec); err != nil {
		fmt.Fprintln(os.Stderr, "bench child:", err)
		return true, 1
	}
	return true, 0
}

// TargetHandler returns the streamable HTTP handler of target in era: an
// SDK's handler (target is its Name) or the Ceiling (CeilingName). done
// shuts the SDK's server down. The error wraps ErrPending if the SDK has no
// such handler yet.
func TargetHandler(target string, era Era) (h http.Handler, done func() error, err error) {
	h, srv, err := targetServer(target, era)
	if err != nil {
		return nil, nil, err
	}
	if srv == nil {
		return h, func() error { return nil }, nil
	}
	return h, srv.Close, nil
}

// targetServer is TargetHandler returning the SDK's server itself (nil for
// the ceiling).
func targetServer(target string, era Era) (http.Handler, Server, error) {
	switch target {
	case CeilingName:
		return Ceiling{}, nil, nil
	case fanoutCeilingName:
		return &fanoutCeiling{}, nil, nil
	case fanoutFloorName:
		return &fanoutFloor{}, nil, nil
	}
	for _, sdk := range SDKs() {
		if sdk.Name() != target {
			continue
		}
		srv, err := sdk.NewServer()
		if err != nil {
			return nil, nil, err
		}
		h, err := srv.Handler(era)
		if err != nil {
			srv.Close()
			return nil, nil, err
		}
		return h, srv, nil
	}
	return nil, nil, fmt.Errorf("unknown benchmark target %q", target)
}

func serveChild(spec string) error {
	target, eraName, _ := strings.Cut(spec, ":")
	era := Legacy
	if eraName == Modern.String() {
		era = Modern
	}
	h, srv, err := targetServer(target, era)
	if err != nil {
		return err
	}
	done := func() error { return nil }
	if srv != nil {
		done = srv.Close
		h = withControl(h, srv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		done()
		return err
	}
	if path := os.Getenv(childProfileEnv); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			done()
			return err
		}
		defer stop()
	}
	hs := &http.Server{Handler: withCPU(h), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or dies
	hs.Close()
	return done()
}

// withCPU serves GET CPUPath itself and passes every other request to h.
func withCPU(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != CPUPath {
			h.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		cpu, err := processCPU()
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotImplemented)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strconv.FormatInt(cpu.Nanoseconds(), 10))
	})
}

// A Child is a copy of the running benchmark binary serving one target's
// streamable HTTP handler in its own process, so that the server's memory
// and CPU time can be measured apart from the client's.
type Child struct {
	// URL is the endpoint of the served handler.
	URL string

	name  string
	cmd   *exec.Cmd
	stdin io.Closer
}

// StartChild starts a copy of the running benchmark binary serving the
// handler of target (an SDK's Name or CeilingName) in era. Stop ends it.
// The benchmark binary's TestMain must call RunChildIfAsked.
func StartChild(target string, era Era) (*Child, error) {
	return startChildWithEnv(target, childEnv+"="+target+":"+era.String())
}

// startChildWithEnv starts a copy of the running benchmark binary with env
// added to its environment, and waits for the URL it prints first.
func startChildWithEnv(name string, env ...string) (*Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Child{name: name, cmd: cmd, stdin: stdin}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- strings.TrimSpace(line)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case c.URL = <-lines:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		c.Stop()
		return nil, fmt.Errorf("bench child %s: no URL within 30s", name)
	}
	if !strings.HasPrefix(c.URL, "http://127.0.0.1:") {
		c.Stop()
		return nil, fmt.Errorf("bench child %s: got %q instead of a URL", name, c.URL)
	}
	return c, nil
}

// CPU returns the CPU time (user and system) the child's process has used
// so far, asking it over hc.
func (c *Child) CPU(ctx context.Context, hc *http.Client) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+CPUPath, nil)
	if err != nil {
		return 0, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("bench child %s: CPU: %w", c.name, err)
	}
	defer drain(resp)
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64))
	if err != nil {
		return 0, fmt.Errorf("bench child %s: CPU: %w", c.name, err)
	}
	if resp.StatusCode == http.StatusNotImplemented {
		return 0, fmt.Errorf("%w: bench child %s: %s", ErrPending, c.name, strings.TrimSpace(string(body)))
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("bench child %s: CPU: status %s", c.name, resp.Status)
	}
	ns, err := strconv.ParseInt(string(body), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bench child %s: CPU: %w", c.name, err)
	}
	return time.Duration(ns), nil
}

// Stop ends the child and waits for it.
func (c *Child) Stop() error {
	c.stdin.Close()
	err := c.cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("bench child %s: %w", c.name, err)
	}
	return err
}
