package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// greeterBinaries builds the greeter of every SDK (internal/greeter/NAME)
// once per benchmark binary, into a temporary folder, and returns their
// paths by SDK name.
var greeterBinaries = sync.OnceValues(func() (map[string]string, error) {
	dir, err := os.MkdirTemp("", "bench-greeters-")
	if err != nil {
		return nil, err
	}
	bins := make(map[string]string)
	for _, name := range Names() {
		bin := filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", bin, "github.com/gomcp/sdk/bench/internal/greeter/"+name)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build greeter %s: %v\n%s", name, err, out)
		}
		bins[name] = bin
	}
	return bins, nil
})

// BenchmarkColdStart measures what a host waits for when it starts a stdio
// server: from the exec of the greeter binary built with each SDK to the
// server's answer to tools/list, after the legacy initialize handshake
// every SDK serves (initialize, notifications/initialized, tools/list,
// written at once as a pipelining host does; the clock stops at the
// tools/list answer). One op is one start. It also reports the size of the
// binary.
func BenchmarkColdStart(b *testing.B) {
	for _, sdk := range SDKs() {
		b.Run(sdk.Name(), func(b *testing.B) {
			bins, err := greeterBinaries()
			if err != nil {
				b.Fatal(err)
			}
			st, err := os.Stat(bins[sdk.Name()])
			if err != nil {
				b.Fatal(err)
			}
			if err := coldStart(bins[sdk.Name()]); err != nil { // warm the page cache, check
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := coldStart(bins[sdk.Name()]); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(st.Size()), "binary-bytes")
		})
	}
}

// coldStart starts bin, asks for its tools after the initialize handshake,
// and returns once the tools/list answer has arrived. The server's exit
// after its input closes is not timed.
func coldStart(bin string) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		// The benchmark's timer is stopped by its caller's next ResetTimer
		// only between ops, so the wait is kept short: a server that
		// lingers is killed.
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	msgs := bytes.Join([][]byte{
		InitializeRequest(1), InitializedNotification(),
		[]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), nil}, []byte("\n"))
	if _, err := stdin.Write(msgs); err != nil {
		return err
	}
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadBytes('\n')
		if bytes.Contains(line, []byte(`"id":2`)) {
			if !bytes.Contains(line, []byte(`"greet"`)) {
				return fmt.Errorf("%w: tools/list answered %.200s", ErrMismatch, line)
			}
			return nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("server closed its output before answering tools/list")
			}
			return err
		}
	}
}
