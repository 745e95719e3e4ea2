package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A legacyStream is the bridge's side of a handshake-era session's GET
// stream, on which the server sends messages outside any request: it
// learns the negotiated version from the initialize result and opens the
// stream once the client has sent notifications/initialized, whichever of
// the two the bridge sees first.
type legacyStream struct {
	hc     *http.Client
	url    string
	header http.Header
	obs    *observer
	local  mcp.Connection

	mu          sync.Mutex
	ctx         context.Context // the bridge's, once the client has initialized
	version     string
	initialized bool
	started     bool
	wg          sync.WaitGroup
}

// fromServer notes the protocol version of an initialize result.
func (l *legacyStream) fromServer(m mcp.JSONRPCMessage) {
	resp, ok := m.(*mcp.JSONRPCResponse)
	if !ok || resp.Error != nil || !bytes.Contains(resp.Result, []byte(`"serverInfo"`)) {
		return
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if strictjson.Unmarshal(resp.Result, &init) == nil && init.ProtocolVersion != "" {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.version = init.ProtocolVersion
		l.startLocked()
	}
}

// fromClient notes that the client completed the handshake.
func (l *legacyStream) fromClient(ctx context.Context, m mcp.JSONRPCMessage) {
	req, ok := m.(*mcp.JSONRPCRequest)
	if !ok || req.Method != "notifications/initialized" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.initialized, l.ctx = true, ctx
	l.startLocked()
}

// startLocked opens the stream once both the version and the client's
// notifications/initialized are known, and only once.
func (l *legacyStream) startLocked() {
	if l.started || !l.initialized || l.version == "" || l.obs.sessionID() == "" {
		return
	}
	l.started = true
	ctx, version := l.ctx, l.version
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.run(ctx, version)
	}()
}

// Pauses between two attempts to open the GET stream: the first, doubled
// after each attempt that did not open it, up to the last.
const (
	streamRetryMin = 250 * time.Millisecond
	streamRetryMax = 5 * time.Second
)

// run reads the GET stream until ctx ends, opening it again when it ends
// or fails to open (after a pause growing from streamRetryMin to
// streamRetryMax, asking for the events after the last one that had an
// id). A server without the stream (405) or without the session (404)
// ends it.
func (l *legacyStream) run(ctx context.Context, version string) {
	pause := streamRetryMin
	lastID := ""
	for {
		opened, stop := l.readOnce(ctx, version, &lastID)
		if stop || ctx.Err() != nil {
			return
		}
		if opened {
			pause = streamRetryMin
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		if !opened {
			pause = min(2*pause, streamRetryMax)
		}
	}
}

// readOnce opens the GET stream and forwards its messages until it ends.
// opened reports whether the server answered with a stream; stop, that it
// will never (405 or 404).
func (l *legacyStream) readOnce(ctx context.Context, version string, lastID *string) (opened, stop bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return false, true
	}
	for k, v := range l.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", l.obs.sessionID())
	req.Header.Set("MCP-Protocol-Version", version)
	if *lastID != "" {
		req.Header.Set("Last-Event-ID", *lastID)
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotFound:
		return false, true
	case resp.StatusCode == http.StatusBadRequest && *lastID != "":
		*lastID = "" // the server cannot resume from there: start afresh
		return false, false
	case resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"):
		return false, false
	}
	_ = readSSEEvents(resp.Body, func(id string, data []byte) error {
		if id != "" {
			*lastID = id
		}
		msg, err := mcp.DecodeMessage(data)
		if err != nil {
			return nil // not a message: skipped
		}
		return l.local.Write(ctx, msg)
	})
	return true, false
}

// readSSE calls dispatch with the data of each event of an SSE stream
// (lines joined with "\n"), until the stream ends or dispatch fails.
// Lines are bounded by maxLine.
func readSSE(r io.Reader, dispatch func(data []byte) error) error {
	return readSSEEvents(r, func(_ string, data []byte) error { return dispatch(data) })
}

// readSSEEvents is readSSE that also passes each event's id (the last id
// field seen in the stream, as the SSE specification keeps it).
func readSSEEvents(r io.Reader, dispatch func(id string, data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4<<10), maxLine)
	var data []byte
	id := ""
	has := false
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if has {
				if err := dispatch(id, data); err != nil {
					return err
				}
			}
			data, has = data[:0], false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				id = string(value)
			}
			continue
		case "data":
		default:
			continue // comments, event, retry
		}
		if has {
			data = append(data, '\n')
		}
		data = append(data, value...)
		has = true
		if len(data) > maxLine {
			return bufio.ErrTooLong
		}
	}
	return sc.Err()
}
