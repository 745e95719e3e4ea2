package bench

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWithCPU checks the CPU path of a child's handler: GET answers a
// positive count of nanoseconds, other methods are refused and every other
// path reaches the served handler.
func TestWithCPU(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("process CPU time is measured on unix systems only")
	}
	ts := httptest.NewServer(withCPU(Ceiling{}))
	defer ts.Close()
	tests := []struct {
		name, method, path, body string
		want                     int
	}{
		{"CPU", http.MethodGet, CPUPath, "", http.StatusOK},
		{"CPU by POST", http.MethodPost, CPUPath, "", http.StatusMethodNotAllowed},
		{"handler", http.MethodPost, "/", string(LegacyCallRequest(1)), http.StatusOK},
		{"handler elsewhere", http.MethodPost, "/mcp", string(LegacyCallRequest(2)), http.StatusOK},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
		if tt.name == "CPU" {
			if ns, err := strconv.ParseInt(string(body), 10, 64); err != nil || ns <= 0 {
				t.Errorf("CPU: body %q, want a positive count of nanoseconds", body)
			}
		}
	}
}

// TestChild starts a child serving the ceiling, calls it and checks that
// its CPU time grows with the calls and that it stops when asked.
func TestChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	child, err := StartChild(CeilingName, Legacy)
	if err != nil {
		t.Fatal(err)
	}
	hc := newHTTPClient(1)
	defer hc.CloseIdleConnections()
	before, err := child.CPU(ctx, hc)
	if errors.Is(err, ErrPending) {
		child.Stop()
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := &RawClient{URL: child.URL, HTTP: hc, Era: Legacy}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if err := c.Call(ctx); err != nil {
			t.Fatal(err)
		}
	}
	after, err := child.CPU(ctx, hc)
	if err != nil {
		t.Fatal(err)
	}
	if after <= before {
		t.Errorf("CPU time %v after 200 calls, %v before: want it to grow", after, before)
	}
	if err := child.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if _, err := child.CPU(ctx, hc); err == nil {
		t.Errorf("CPU answered after Stop")
	}
}

// TestTargetHandler checks that every target has a handler in both eras and
// that an unknown one is an error.
func TestTargetHandler(t *testing.T) {
	for _, era := range Eras {
		for _, target := range append(Names(), CeilingName) {
			h, done, err := TargetHandler(target, era)
			if errors.Is(err, ErrPending) {
				continue
			}
			if err != nil || h == nil {
				t.Errorf("%s %s: %v", target, era, err)
				continue
			}
			done()
		}
	}
	if _, _, err := TargetHandler("nosuch", Legacy); err == nil {
		t.Errorf("unknown target: no error")
	}
}
