package auth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// LoopbackOptions configure a LoopbackRedirect.
type LoopbackOptions struct {
	// Port to listen on at 127.0.0.1; 0 picks a free one. Authorization
	// servers accept any port for loopback redirect URIs (RFC 8252).
	Port int
	// Path of the redirect URL (default "/callback").
	Path string
	// Open shows the authorization URL to the user, for example by
	// starting a browser. The default prints it to Output.
	Open func(authorizationURL string) error
	// Output receives the default prompt (default os.Stderr).
	Output io.Writer
}

// LoopbackRedirect receives authorization responses on 127.0.0.1, for
// command-line and desktop programs (RFC 8252 section 7.3). Its Authorize
// method is an AuthorizeFunc: it shows the authorization URL and waits
// until the browser comes back to RedirectURL, or the context ends. Close
// it when done; it then holds no goroutine or socket.
type LoopbackRedirect struct {
	ln   net.Listener
	srv  *http.Server
	path string
	open func(string) error
	done chan struct{} // closed when Serve returns

	mu      sync.Mutex
	waiting chan loopbackResult // the Authorize call in progress, if any
}

type loopbackResult struct {
	code, state, iss string
	err              error
}

// NewLoopbackRedirect starts listening on 127.0.0.1.
func NewLoopbackRedirect(opts *LoopbackOptions) (*LoopbackRedirect, error) {
	var o LoopbackOptions
	if opts != nil {
		o = *opts
	}
	if o.Path == "" {
		o.Path = "/callback"
	}
	if o.Output == nil {
		o.Output = os.Stderr
	}
	if o.Open == nil {
		out := o.Output
		o.Open = func(u string) error {
			_, err := fmt.Fprintf(out, "Open this URL in a browser to authorize access:\n\n  %s\n\n", u)
			return err
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(o.Port)))
	if err != nil {
		return nil, fmt.Errorf("auth: loopback redirect: %w", err)
	}
	l := &LoopbackRedirect{ln: ln, path: o.Path, open: o.Open, done: make(chan struct{})}
	l.srv = &http.Server{
		Handler:           http.HandlerFunc(l.serveHTTP),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       30 * time.Second,
	}
	go func() {
		defer close(l.done)
		l.srv.Serve(ln)
	}()
	return l, nil
}

// RedirectURL returns the redirect URL to register and to give
// AuthorizationCodeGrant, such as "http://127.0.0.1:53682/callback".
func (l *LoopbackRedirect) RedirectURL() string {
	return "http://" + l.ln.Addr().String() + l.path
}

// Authorize shows authorizationURL and waits for the authorization
// response. It is an AuthorizeFunc; one call at a time.
func (l *LoopbackRedirect) Authorize(ctx context.Context, authorizationURL string) (code, state, iss string, err error) {
	ch := make(chan loopbackResult, 1)
	l.mu.Lock()
	if l.waiting != nil {
		l.mu.Unlock()
		return "", "", "", errors.New("auth: loopback redirect: an authorization is already in progress")
	}
	l.waiting = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.waiting = nil
		l.mu.Unlock()
	}()
	if err := l.open(authorizationURL); err != nil {
		return "", "", "", fmt.Errorf("auth: showing the authorization URL: %w", err)
	}
	select {
	case r := <-ch:
		return r.code, r.state, r.iss, r.err
	case <-ctx.Done():
		return "", "", "", ctx.Err()
	case <-l.done:
		return "", "", "", errors.New("auth: loopback redirect closed")
	}
}

// serveHTTP receives the browser's redirect.
func (l *LoopbackRedirect) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != l.path || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	res := loopbackResult{code: q.Get("code"), state: q.Get("state"), iss: q.Get("iss")}
	if e := q.Get("error"); e != "" {
		res.err = &OAuthError{Code: e, Description: q.Get("error_description")}
	}
	l.mu.Lock()
	ch := l.waiting
	l.waiting = nil
	l.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if ch == nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, "<p>No authorization is waiting for this response.</p>")
		return
	}
	ch <- res
	if res.err != nil {
		fmt.Fprintf(w, "<p>Authorization failed: %s. You can close this window.</p>", html.EscapeString(res.err.(*OAuthError).Code))
		return
	}
	io.WriteString(w, "<p>Authorization received. You can close this window.</p>")
}

// Close stops listening and waits until the server's goroutines end.
func (l *LoopbackRedirect) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := l.srv.Shutdown(ctx)
	if err != nil {
		l.srv.Close()
	}
	<-l.done
	return err
}
