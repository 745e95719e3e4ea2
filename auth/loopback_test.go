package auth

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLoopbackRedirect(t *testing.T) {
	defer checkNoGoroutineLeak(t)()
	out := &syncBuffer{}
	l, err := NewLoopbackRedirect(&LoopbackOptions{Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.RedirectURL(), "http://127.0.0.1:") || !strings.HasSuffix(l.RedirectURL(), "/callback") {
		t.Errorf("RedirectURL = %q", l.RedirectURL())
	}
	// The browser: once the URL is printed, it comes back with a response.
	browse := func(query string) {
		for i := 0; i < 100 && !strings.Contains(out.String(), "https://as.example.com/authorize"); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		resp, err := http.Get(l.RedirectURL() + query)
		if err == nil {
			resp.Body.Close()
		}
	}
	go browse("?code=c1&state=s1&iss=https%3A%2F%2Fas.example.com")
	code, state, iss, err := l.Authorize(context.Background(), "https://as.example.com/authorize?x=1")
	if err != nil || code != "c1" || state != "s1" || iss != "https://as.example.com" {
		t.Fatalf("Authorize = %q %q %q %v", code, state, iss, err)
	}
	out.Reset()
	go browse("?error=access_denied&state=s2")
	_, state, _, err = l.Authorize(context.Background(), "https://as.example.com/authorize?x=2")
	var oe *OAuthError
	if !errors.As(err, &oe) || oe.Code != "access_denied" || state != "s2" {
		t.Errorf("error response: state %q, err %v", state, err)
	}
	// A response nobody waits for is refused.
	resp, err := http.Get(l.RedirectURL() + "?code=late")
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unexpected response: %v %v", resp, err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, _, err := l.Authorize(ctx, "https://as.example.com/authorize"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	http.DefaultClient.CloseIdleConnections()
	if err := l.Close(); err != nil {
		t.Error(err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}
