package bench

import (
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// FloorName is the fan-out target below which no server can go on this
// machine ("floor"): BenchmarkFanout reports it next to the SDKs and the
// ceiling.
const FloorName = "floor"

// fanoutFloorName is the child target of FloorName.
const fanoutFloorName = "floor-sse"

// fanoutFloor is the fan-out target that does the least a server must:
// it answers the stream requests as the fan-out ceiling does, then takes
// each stream's connection from net/http (no goroutine, no buffer, no
// channel per stream), and delivers a notification as one write of one
// event, made once, to every connection, from a few goroutines. Its CPU
// per notification is about the kernel's cost of one small write to a
// loopback socket, which every server pays once per stream: a figure no
// SDK can go below.
type fanoutFloor struct {
	fanoutCeiling
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// floorStreamHead is the response head of a floor stream: chunked, so
// that the client reads it as net/http's streams.
const floorStreamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"

// ServeHTTP implements http.Handler.
func (f *fanoutFloor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == NotifyToolsPath:
		f.broadcast(chunked(ceilingEvents[ToolsChanged]))
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == NotifyResourcePath:
		f.broadcast(chunked(ceilingEvents[ResourceUpdated]))
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.Path != MemPath:
		f.hold(w, nil)
	case r.Method == http.MethodPost && r.Header.Get("Mcp-Method") == "subscriptions/listen":
		io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
		f.hold(w, ceilingEvents["ack"])
	default:
		f.fanoutCeiling.ServeHTTP(w, r)
	}
}

// hold takes a stream's connection, writes the response head and first
// (if any), and keeps the connection for broadcasts.
func (f *fanoutFloor) hold(w http.ResponseWriter, first []byte) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	head := []byte(floorStreamHead)
	if first != nil {
		head = append(head, chunked(first)...)
	}
	// Held before the head goes out: a client that has read its
	// acknowledgement is sent the next broadcast.
	f.mu.Lock()
	if f.conns == nil {
		f.conns = make(map[net.Conn]struct{})
	}
	f.conns[conn] = struct{}{}
	f.mu.Unlock()
	if _, err := conn.Write(head); err != nil {
		f.drop(conn)
	}
}

// drop closes conn and forgets it.
func (f *fanoutFloor) drop(conn net.Conn) {
	conn.Close()
	f.mu.Lock()
	delete(f.conns, conn)
	f.mu.Unlock()
}

// broadcast writes ev to every held connection from 2×GOMAXPROCS
// goroutines, and drops the connections a write fails on.
func (f *fanoutFloor) broadcast(ev []byte) {
	f.mu.Lock()
	conns := make([]net.Conn, 0, len(f.conns))
	for c := range f.conns {
		conns = append(conns, c)
	}
	f.mu.Unlock()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(conns), 2*runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(conns)); i = next.Add(1) - 1 {
				if _, err := conns[i].Write(ev); err != nil {
					f.drop(conns[i])
				}
			}
		})
	}
	wg.Wait()
}

// chunked frames b as one chunk of a chunked HTTP/1.1 body.
func chunked(b []byte) []byte {
	out := strconv.AppendInt(nil, int64(len(b)), 16)
	out = append(out, "\r\n"...)
	out = append(out, b...)
	return append(out, "\r\n"...)
}
