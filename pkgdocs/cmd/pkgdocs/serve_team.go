package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/mcp"
)

// teamConfig is what a team server is made of: its flags, and what does
// not come from flags.
type teamConfig struct {
	teamOptions
	// introspectionSecret authenticates pkgdocs at the introspection
	// endpoint (from introspectionSecretEnv).
	introspectionSecret string
	// logger gets the access log and what the handlers cannot tell a
	// client (default: discard).
	logger *slog.Logger
	// httpClient fetches the issuer's metadata and keys, and makes
	// introspections (nil: the auth module's default).
	httpClient *http.Client
}

// A teamServer serves pkgdocs over streamable HTTP to many agents: the
// MCP endpoint behind OAuth (when configured) and per-principal rate
// limits, /healthz and /readyz, the Protected Resource Metadata, and an
// access log of every request. Shutdown drains it.
type teamServer struct {
	cfg      teamConfig
	endpoint string // path of the MCP endpoint
	mcp      *mcp.StreamableHTTPHandler
	health   *health
	refusing atomic.Bool // the MCP handler answers new requests 503
	http     *http.Server
}

// newTeamServer returns the team server of server configured by cfg.
// With a public URL (--resource) it adds middleware to server that
// refuses projectPath arguments (see refuseProjectPaths), unless
// cfg.allowProjectPath. It refuses a configuration that cannot work (an
// issuer without the public URL, a malformed URL, a negative rate) with
// an error naming the flag.
func newTeamServer(server *mcp.Server, cfg teamConfig) (*teamServer, error) {
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	if cfg.drainTimeout <= 0 {
		return nil, fmt.Errorf("--drain-timeout %v: want a positive duration", cfg.drainTimeout)
	}
	if cfg.drainDelay < 0 || cfg.drainDelay >= cfg.drainTimeout {
		return nil, fmt.Errorf("--drain-delay %v: want at least 0 and less than --drain-timeout %v", cfg.drainDelay, cfg.drainTimeout)
	}
	t := &teamServer{cfg: cfg, endpoint: "/mcp", health: &health{}}
	var hosts []string // empty: localhost only
	if cfg.resource != "" {
		canon, path, err := endpointOf(cfg.resource)
		if err != nil {
			return nil, err
		}
		u, _ := url.Parse(canon)
		t.cfg.resource, t.endpoint, hosts = canon, path, []string{u.Hostname()}
	}
	limiter, err := newRateLimiter(cfg.rateLimit, cfg.rateBurst)
	if err != nil {
		return nil, err
	}
	prot, err := newProtection(&t.cfg)
	if err != nil {
		return nil, err
	}
	if cfg.resource != "" && !cfg.allowProjectPath {
		server.AddMiddleware(refuseProjectPaths)
	}
	t.mcp = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{AllowedHosts: hosts, Stateless: cfg.stateless, Logger: cfg.logger})
	var endpoint http.Handler = http.HandlerFunc(t.serveMCP)
	if limiter != nil {
		endpoint = limiter.middleware(endpoint)
	}
	endpoint = noteCaller(endpoint)
	mux := http.NewServeMux()
	if prot != nil {
		endpoint = prot.protect(endpoint)
		for _, p := range prot.prmPaths {
			mux.Handle(p, prot.prm)
		}
	}
	mux.Handle(t.endpoint, endpoint)
	mux.Handle("/healthz", t.health)
	mux.Handle("/readyz", t.health)
	t.http = &http.Server{
		Handler:           accessLog(cfg.logger, mux),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(cfg.logger.Handler(), slog.LevelWarn),
	}
	return t, nil
}

// serveMCP passes r to the MCP handler, or, once the server drains and
// refuses new requests, answers 503 with Retry-After (at once: another
// instance takes them) and a JSON-RPC error, as the MCP handler itself
// does once it shuts down.
func (t *teamServer) serveMCP(w http.ResponseWriter, r *http.Request) {
	if t.refusing.Load() {
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"server is shutting down"}}` + "\n"))
		return
	}
	t.mcp.ServeHTTP(w, r)
}

// endpointOf checks the public URL of the MCP endpoint and returns it in
// canonical form with its path, which must be one the server can route
// without colliding with its own paths.
func endpointOf(resource string) (canon, path string, err error) {
	canon, err = auth.CanonicalResourceURL(resource)
	if err != nil {
		return "", "", fmt.Errorf("--resource %q: %w", resource, err)
	}
	u, err := url.Parse(canon)
	if err != nil {
		return "", "", fmt.Errorf("--resource %q: %w", resource, err)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", "", fmt.Errorf("--resource %q: want an https (or http) URL", resource)
	}
	path = u.EscapedPath()
	if path == "" {
		path = "/"
	}
	switch {
	case strings.ContainsFunc(path, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/-._~", r))
	}):
		return "", "", fmt.Errorf("--resource %q: the path may hold only letters, digits and / - . _ ~", resource)
	case path == "/healthz" || path == "/readyz" || strings.HasPrefix(path, "/.well-known/"):
		return "", "", fmt.Errorf("--resource %q: %s is the server's own path", resource, path)
	}
	return canon, path, nil
}

// url returns the URL the server answers at when it listens on addr: the
// public URL when one was given.
func (t *teamServer) url(addr net.Addr) string {
	if t.cfg.resource != "" {
		return t.cfg.resource
	}
	return "http://" + addr.String() + t.endpoint
}

// Serve accepts connections on ln until Shutdown; it then returns nil.
func (t *teamServer) Serve(ln net.Listener) error {
	if err := t.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown drains the server: /readyz answers 503, so that the load
// balancer sends new requests elsewhere; new requests are still served
// for the drain delay, then answered 503; the calls in progress finish
// until ctx is done; then event streams end, sessions close and the HTTP
// server stops. Calls still running when ctx ends are cancelled. It
// returns ctx's error if ctx ended before the server was drained.
func (t *teamServer) Shutdown(ctx context.Context) error {
	t.health.drain()
	t.cfg.logger.Info("draining: /readyz answers 503", "delay", t.cfg.drainDelay)
	var err error // the first error
	if d := t.cfg.drainDelay; d > 0 {
		delay := time.NewTimer(d)
		select {
		case <-delay.C:
		case <-ctx.Done():
			delay.Stop()
			err = ctx.Err()
		}
	}
	t.refusing.Store(true)
	t.cfg.logger.Info("shutting down: new requests refused, finishing the answers in flight")
	if merr := t.mcp.Shutdown(ctx); err == nil {
		err = merr
	}
	if herr := t.http.Shutdown(ctx); herr != nil {
		t.http.Close()
		if err == nil {
			err = herr
		}
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	t.cfg.logger.Info("shut down")
	return nil
}

// run serves on ln until ctx is done, then drains within the drain
// timeout.
func (t *teamServer) run(ctx context.Context, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- t.Serve(ln) }()
	select {
	case err := <-served:
		t.mcp.Close()
		return err
	case <-ctx.Done():
	}
	drain, cancel := context.WithTimeout(context.Background(), t.cfg.drainTimeout)
	defer cancel()
	err := t.Shutdown(drain)
	return errors.Join(err, <-served)
}
