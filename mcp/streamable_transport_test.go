package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// sessionRouter is a handler that manages sessions itself with
// StreamableServerTransport, as the transport's users do.
type sessionRouter struct {
	server *Server
	mu     sync.Mutex
	byID   map[string]*StreamableServerTransport
}

func (sr *sessionRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get(headerSessionID)
	sr.mu.Lock()
	t := sr.byID[sid]
	if t == nil && sid == "" && r.Method == http.MethodPost {
		t = NewStreamableServerTransport(newSessionID(), nil)
		if _, err := sr.server.Connect(context.Background(), t); err != nil {
			sr.mu.Unlock()
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		sr.byID[t.SessionID()] = t
	}
	sr.mu.Unlock()
	if t == nil {
		http.Error(w, "unknown session", http.StatusNotFound)
		return
	}
	t.ServeHTTP(w, r)
}

func TestStreamableServerTransport(t *testing.T) {
	server := NewServer("routed", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	router := &sessionRouter{server: server, byID: map[string]*StreamableServerTransport{}}
	ts := httptest.NewServer(router)
	defer ts.Close()
	// The client has roots: it opens the GET stream for the server's
	// requests at connect.
	client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125})
	client.AddRoots(&Root{URI: "file:///tmp"})
	cs, err := client.Connect(context.Background(), NewStreamableClientTransport(ts.URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.ProtocolVersion() != Version20251125 {
		t.Fatalf("version %s", cs.ProtocolVersion())
	}
	res, err := cs.CallTool(context.Background(), "progress", nil, nil)
	if err != nil || res.Content[0].Text != "done" {
		t.Fatalf("call: %v %v", res, err)
	}
	var ss *ServerSession
	for s := range server.Sessions() {
		if s.initialized.Load() {
			ss = s
		}
	}
	if ss == nil {
		t.Fatal("no initialized session")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var perr error
	for range 100 { // the GET stream opens right after initialize
		if perr = ss.Ping(ctx, nil); perr == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if perr != nil {
		t.Fatalf("server ping over the GET stream: %v", perr)
	}
}
