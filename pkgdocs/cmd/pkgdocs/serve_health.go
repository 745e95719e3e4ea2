package main

import (
	"net/http"
	"sync/atomic"
)

// health answers the probes of a load balancer or orchestrator: /healthz
// says the process is serving (200 for as long as it answers at all),
// /readyz whether it wants new requests (503 once it has begun to shut
// down, so that traffic moves to the other instances while it finishes
// the answers in flight). Neither needs a token.
type health struct {
	draining atomic.Bool
}

// drain makes /readyz answer 503 from now on.
func (h *health) drain() { h.draining.Store(true) }

// ServeHTTP answers /healthz and /readyz.
func (h *health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	switch {
	case r.URL.Path == "/readyz" && h.draining.Load():
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
	case r.URL.Path == "/readyz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ready\n"))
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	}
}
