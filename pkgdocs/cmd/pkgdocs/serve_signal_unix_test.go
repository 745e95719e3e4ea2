//go:build unix

package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestSIGTERMDrains: the command's own signal handling, from a SIGTERM
// sent to this process to the drained exit: the answer in flight still
// reaches its client, and the command exits 0.
func TestSIGTERMDrains(t *testing.T) {
	proxy := newDemoProxy(t, true)
	t.Setenv("GOPROXY", proxy.URL)
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
	ctx, stopSignals := notifyShutdown(context.Background())
	defer stopSignals()
	endpoint, sink, stop := runServe(ctx, t)
	cs, err := connect(t, endpoint, "")
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), "describe_go_package", map[string]any{"package": "example.com/demo/sub"}, nil)
		if err != nil {
			answered <- err.Error()
			return
		}
		answered <- text(res)
	}()
	<-proxy.asked
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	sink.await(t, "shutting down")
	proxy.letThrough()
	if got := <-answered; !strings.HasPrefix(got, "# example.com/demo/sub@v1.1.0\n") {
		t.Errorf("the answer in flight at SIGTERM: %q", got)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit code %d after SIGTERM", code)
	}
}
