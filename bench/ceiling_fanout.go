package bench

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
)

// fanoutCeiling is the Ceiling that also holds notification streams, the
// floor of notification fan-out over net/http: a legacy GET stream or a
// 2026-07-28 subscriptions/listen answered with an SSE stream (with its
// acknowledgement) is one handler goroutine waiting on a channel, and a
// notification is one fixed event, made once, written and flushed to
// every stream. What an SDK's stream costs above it is the SDK's own. It
// serves the fan-out control paths (NotifyToolsPath, NotifyResourcePath,
// MemPath) itself.
type fanoutCeiling struct {
	Ceiling
	mu      sync.Mutex
	streams map[chan []byte]struct{}
}

// fanoutCeilingName is the child target of the fan-out ceiling, which
// BenchmarkFanout reports as CeilingName. The load benchmarks keep the
// plain Ceiling, untouched by the fan-out paths.
const fanoutCeilingName = "ceiling-sse"

// ceilingEvents are the SSE events the fan-out ceiling writes.
var ceilingEvents = map[string][]byte{
	ToolsChanged:    []byte(`data: {"jsonrpc":"2.0","method":"` + ToolsChanged + `","params":{}}` + "\n\n"),
	ResourceUpdated: []byte(`data: {"jsonrpc":"2.0","method":"` + ResourceUpdated + `","params":{"uri":"` + WatchedURI + `"}}` + "\n\n"),
	"ack":           []byte(`data: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}` + "\n\n"),
}

// ServeHTTP implements http.Handler.
func (c *fanoutCeiling) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == MemPath:
		serveMem(w)
	case r.URL.Path == NotifyToolsPath:
		c.broadcast(ceilingEvents[ToolsChanged])
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == NotifyResourcePath:
		c.broadcast(ceilingEvents[ResourceUpdated])
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet:
		c.hold(w, r, nil)
	case r.Method == http.MethodPost && r.Header.Get("Mcp-Method") == "subscriptions/listen":
		io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
		c.hold(w, r, ceilingEvents["ack"])
	default:
		c.Ceiling.ServeHTTP(w, r)
	}
}

// hold serves one notification stream until its client goes away, after
// writing first, if any.
func (c *fanoutCeiling) hold(w http.ResponseWriter, r *http.Request, first []byte) {
	events := make(chan []byte, 32)
	c.mu.Lock()
	if c.streams == nil {
		c.streams = make(map[chan []byte]struct{})
	}
	c.streams[events] = struct{}{}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.streams, events)
		c.mu.Unlock()
	}()
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if first != nil {
		w.Write(first)
	}
	if flusher != nil {
		flusher.Flush()
	}
	for {
		select {
		case ev := <-events:
			if _, err := w.Write(ev); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-r.Context().Done():
			return
		}
	}
}

// broadcast hands ev to every stream, skipping one whose queue is full.
func (c *fanoutCeiling) broadcast(ev []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := range c.streams {
		select {
		case s <- ev:
		default:
		}
	}
}

// serveMem answers MemPath: the process's settled heap, stack and
// goroutines, and its allocations so far.
func serveMem(w http.ResponseWriter) {
	u := settle()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if path := os.Getenv(childHeapProfileEnv); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	json.NewEncoder(w).Encode(ChildMem{TotalAlloc: ms.TotalAlloc, Heap: u.heap, Stack: u.stack, Goroutines: u.goroutines})
}
