package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// shutdownGrace is how long closing a stdio server waits at each step
// (stdin closed, then SIGTERM) before the next: one-shot commands end
// promptly even when a server lingers after its input closes.
const shutdownGrace = 100 * time.Millisecond

// version is the program's version, from its build info.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// A session is a connected client session and what is needed to explain
// its failures.
type session struct {
	*mcp.ClientSession
	target *target
	obs    *observer   // HTTP exchanges; nil for stdio
	tail   *tailWriter // the end of a stdio server's stderr
	auth   *authorizer // OAuth of an HTTP target, if any
	shared bool        // the shell's session: Close leaves it open
}

// Close closes the session, unless the shell shares it between commands.
func (s *session) Close() error {
	if s.shared {
		return nil
	}
	err := s.ClientSession.Close()
	s.auth.Close()
	return err
}

// fail classifies an error of a request made on the session.
func (s *session) fail(err error, what string) error {
	err = classify(err, what, s.obs)
	var ce *cliError
	if s.tail != nil && errors.As(err, &ce) && ce.exit == exitUnreachable {
		if t := s.tail.String(); t != "" {
			ce.msg += "; the server's stderr ends with: " + t
		}
	}
	return err
}

// protocolVersion maps --protocol to ClientOptions.ProtocolVersion.
func protocolVersion(p string) (string, error) {
	switch p {
	case "", "auto":
		return "", nil
	case "legacy":
		return mcp.Version20251125, nil
	case "modern":
		return mcp.LatestVersion, nil
	}
	if slices.Contains(mcp.SupportedVersions(), p) {
		return p, nil
	}
	return "", usageError("--protocol %q: want auto, legacy, modern or a version (%s)", p, strings.Join(mcp.SupportedVersions(), ", "))
}

// connect connects a client with opts to the target, honouring --protocol
// and falling back from streamable HTTP to HTTP+SSE.
func connect(ctx context.Context, env *environ, o *options, t *target, opts mcp.ClientOptions, setup func(*mcp.Client)) (*session, error) {
	pv, err := protocolVersion(o.protocol)
	if err != nil {
		return nil, err
	}
	opts.ProtocolVersion = pv
	s, err := connectOnce(ctx, env, o, t, opts, setup)
	// A legacy server pinned to a version the handshake did not offer
	// answers with its own: take it.
	if err != nil && o.protocol == "legacy" && errors.Is(err, mcp.ErrUnsupportedVersion) {
		if m := offeredVersion.FindStringSubmatch(err.Error()); m != nil && slices.Contains(mcp.SupportedVersions(), m[1]) && m[1] != mcp.LatestVersion {
			opts.ProtocolVersion = m[1]
			s, err = connectOnce(ctx, env, o, t, opts, setup)
		}
	}
	return s, err
}

var offeredVersion = regexp.MustCompile(`server offered (\S+)`)

func connectOnce(ctx context.Context, env *environ, o *options, t *target, opts mcp.ClientOptions, setup func(*mcp.Client)) (*session, error) {
	client := mcp.NewClient("gomcp", version(), &opts)
	if setup != nil {
		setup(client)
	}
	if t.url == "" {
		return connectStdio(ctx, env, o, t, client)
	}
	header := headerOf(t)
	hc, obs, a, err := httpClient(env, o, t, o.forceInteractive || (env.stdinTTY && !o.noInteractive))
	if err != nil {
		return nil, err
	}
	s := &session{target: t, obs: obs, auth: a}
	if !t.sse {
		cs, err := client.Connect(ctx, mcp.NewStreamableClientTransport(t.url, &mcp.StreamableClientTransportOptions{HTTPClient: hc, Header: header}))
		if err == nil {
			s.ClientSession = cs
			return s, nil
		}
		if !obs.postRejected() || opts.ProtocolVersion == mcp.LatestVersion {
			a.Close()
			return nil, classify(err, "connecting to "+t.String(), obs)
		}
	}
	// HTTP+SSE (2024-11-05): the endpoint refused streamable HTTP POSTs,
	// or the config says so.
	sse, err := mcp.NewSSEClientTransport(t.url, &mcp.SSEClientTransportOptions{HTTPClient: hc, Header: header})
	if err != nil {
		a.Close()
		return nil, usageError("%v", err)
	}
	cs, err := client.Connect(ctx, sse)
	if err != nil {
		a.Close()
		return nil, classify(err, "connecting to "+t.String()+" (HTTP+SSE)", obs)
	}
	s.ClientSession = cs
	return s, nil
}

// headerOf is the target's --header and config headers.
func headerOf(t *target) http.Header {
	header := http.Header{}
	for _, h := range t.headers {
		name, value, _ := strings.Cut(h, ":")
		header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	return header
}

func connectStdio(ctx context.Context, env *environ, o *options, t *target, client *mcp.Client) (*session, error) {
	cmd := exec.Command(t.command[0], t.command[1:]...)
	cmd.Env = append(os.Environ(), t.env...)
	cmd.Dir = t.cwd
	// A server's children may hold its stderr open after it exits.
	cmd.WaitDelay = shutdownGrace
	tail := &tailWriter{max: 2048}
	cmd.Stderr = tail
	if o.serverLogs {
		cmd.Stderr = &teeWriter{tail, env.stderr}
	}
	s := &session{target: t, tail: tail}
	cs, err := client.Connect(ctx, mcp.NewCommandTransport(cmd, &mcp.CommandTransportOptions{TerminateDuration: shutdownGrace}))
	if err != nil {
		return nil, s.fail(unreachableIfClosed(err), "starting "+t.String())
	}
	s.ClientSession = cs
	return s, nil
}

// unreachableIfClosed marks a server that ended before answering as
// unreachable.
func unreachableIfClosed(err error) error {
	if errors.Is(err, mcp.ErrConnectionClosed) {
		return &cliError{exit: exitUnreachable, code: "unreachable", msg: "the server exited before answering", cause: err}
	}
	return err
}

// An observer is the HTTP transport of a session: it remembers the
// statuses that explain failures.
type observer struct {
	base http.RoundTripper

	mu         sync.Mutex
	authStatus int
	authURL    string
	rejected   bool   // a POST got 400, 404 or 405: maybe an HTTP+SSE server
	session    string // the last Mcp-Session-Id the server gave
}

func newObserver() *observer {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 0
	return &observer{base: tr}
}

// RoundTrip sends req and notes its status.
func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := o.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		o.session = id
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusAccepted:
		o.authStatus, o.authURL = 0, "" // authorized after all
	case http.StatusUnauthorized, http.StatusForbidden:
		o.authStatus, o.authURL = resp.StatusCode, req.URL.Redacted()
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		if req.Method == http.MethodPost && req.Header.Get("Mcp-Session-Id") == "" {
			o.rejected = true
		}
	}
	o.mu.Unlock()
	return resp, nil
}

func (o *observer) authFailure() (int, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.authStatus, o.authURL
}

func (o *observer) sessionID() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.session
}

func (o *observer) postRejected() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.rejected
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.buf))
}

// teeWriter writes to both writers, ignoring the second's errors.
type teeWriter struct {
	a, b interface{ Write([]byte) (int, error) }
}

func (w *teeWriter) Write(p []byte) (int, error) {
	_, _ = w.b.Write(p)
	return w.a.Write(p)
}

// describe is a one-line description of the session's protocol.
func describe(cs *mcp.ClientSession) string {
	era := "legacy"
	if isModern(cs) {
		era = "modern"
	}
	return fmt.Sprintf("%s (%s)", cs.ProtocolVersion(), era)
}

// isModern reports whether the session speaks the 2026-07-28 era (no
// handshake, no session).
func isModern(cs *mcp.ClientSession) bool {
	return cs.ProtocolVersion() >= mcp.Version20260728
}
