package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

func TestClientStatusHandling(t *testing.T) {
	tests := []struct {
		name      string
		responses []func(w http.ResponseWriter)
		wantErr   error
		wantCalls int32
		wantBody  string
	}{
		{
			name:      "200 answers at once",
			responses: []func(http.ResponseWriter){ok("hello")},
			wantCalls: 1, wantBody: "hello",
		},
		{
			name:      "404 is not retried",
			responses: []func(http.ResponseWriter){status(404, "")},
			wantErr:   ErrNotFound, wantCalls: 1,
		},
		{
			name:      "410 counts as not found",
			responses: []func(http.ResponseWriter){status(410, "")},
			wantErr:   ErrNotFound, wantCalls: 1,
		},
		{
			name:      "401 is unauthorized and not retried",
			responses: []func(http.ResponseWriter){status(401, "")},
			wantErr:   ErrUnauthorized, wantCalls: 1,
		},
		{
			name:      "429 with Retry-After then success",
			responses: []func(http.ResponseWriter){status(429, "1"), ok("later")},
			wantCalls: 2, wantBody: "later",
		},
		{
			name:      "500 is retried and then reported",
			responses: []func(http.ResponseWriter){status(500, ""), status(502, ""), status(503, "")},
			wantErr:   ErrUpstream, wantCalls: 3,
		},
		{
			name:      "500 then success",
			responses: []func(http.ResponseWriter){status(500, ""), ok("fine")},
			wantCalls: 2, wantBody: "fine",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := calls.Add(1)
				tt.responses[min(int(n), len(tt.responses))-1](w)
			}))
			defer srv.Close()
			c := New(&Options{BaseBackoff: time.Millisecond})
			start := time.Now()
			resp, err := c.Get(context.Background(), srv.URL+"/x")
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("unexpected error: %v", err)
			} else if string(resp.Body) != tt.wantBody {
				t.Fatalf("body = %q, want %q", resp.Body, tt.wantBody)
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Fatalf("calls = %d, want %d", got, tt.wantCalls)
			}
			if tt.name == "429 with Retry-After then success" && time.Since(start) < 900*time.Millisecond {
				t.Fatalf("Retry-After: 1 was not honoured (took %s)", time.Since(start))
			}
		})
	}
}

func ok(body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.Write([]byte(body)) }
}

func status(code int, retryAfter string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
	}
}

func TestClientRetryAfterBeyondDeadline(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	c := New(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.Get(ctx, srv.URL)
	if !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	var se *StatusError
	if !errors.As(err, &se) || se.RetryAfter != 120*time.Second {
		t.Fatalf("RetryAfter not reported: %v", err)
	}
	if time.Since(start) > time.Second || calls.Load() != 1 {
		t.Fatalf("client waited instead of failing fast (%s, %d calls)", time.Since(start), calls.Load())
	}
}

func TestClientTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := New(&Options{Timeout: 100 * time.Millisecond, Retries: -1})
	_, err := c.Get(context.Background(), srv.URL)
	if err == nil || !IsTransient(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a transient deadline error", err)
	}
}

func TestClientBodyLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // no Content-Length: the limit must hold while streaming
		w.Write(make([]byte, 2048))
	}))
	defer srv.Close()
	c := New(nil)
	_, err := c.Do(context.Background(), Request{URL: srv.URL, MaxBytes: 1024})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if IsTransient(err) {
		t.Fatal("a too-large body must not count as transient")
	}
}

func TestClientFileURL(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "list"), []byte("v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := New(nil)
	resp, err := c.Get(context.Background(), "file://"+filepath.ToSlash(dir)+"/list")
	if err != nil || string(resp.Body) != "v1.0.0\n" {
		t.Fatalf("file read = %v, %v", resp, err)
	}
	if _, err := c.Get(context.Background(), "file://"+filepath.ToSlash(dir)+"/missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing file err = %v, want ErrNotFound", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"-1", 0},
		{"Sun, 01 Nov 2026 12:00:05 GMT", 5 * time.Second},
		{"Sun, 01 Nov 2026 11:00:00 GMT", 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestAuthorizationDroppedOnForeignRedirect(t *testing.T) {
	var leaked, reached atomic.Bool
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
		if r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		w.Write([]byte("payload"))
	}))
	defer foreign.Close()
	_, port, _ := net.SplitHostPort(foreign.Listener.Addr().String())
	// 127.0.0.1 and localhost are different hosts for the redirect policy.
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/file", http.StatusFound)
	}))
	defer origin.Close()
	c := New(nil)
	resp, err := c.Do(context.Background(), Request{URL: origin.URL, Header: http.Header{"Authorization": {"Bearer secret"}}})
	if err != nil || string(resp.Body) != "payload" {
		t.Fatalf("redirected fetch = %v, %v", resp, err)
	}
	if !reached.Load() || leaked.Load() {
		t.Fatalf("reached=%v leaked=%v: the token must not follow a redirect to another host", reached.Load(), leaked.Load())
	}
}

// The bytes of a body reach the progress reporter the context carries, as
// they are read, with the length the server announced.
func TestBodyBytesReported(t *testing.T) {
	body := strings.Repeat("x", 5000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5000")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	got := make(chan progress.Update, 100)
	rep := progress.New(func(u progress.Update) { got <- u }, nil)
	resp, err := New(nil).Get(progress.NewContext(context.Background(), rep), srv.URL)
	if err != nil || string(resp.Body) != body {
		t.Fatalf("Get: %v", err)
	}
	rep.Finish()
	var last progress.Update
	for len(got) > 0 {
		last = <-got
	}
	if last.Stage != progress.Done || last.Downloads != 1 || last.Bytes != 5000 || last.LatestSize != 5000 {
		t.Errorf("last update %+v, want done with 1 download of 5000 bytes, 5000 announced", last)
	}
}
