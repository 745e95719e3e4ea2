package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/mcp"
)

// A legacyStream is the bridge's side of a handshake-era session's GET
// stream, on which the server sends messages outside any request: it
// learns the negotiated version from the initialize result and opens the
// stream once the client sends notifications/initialized.
type legacyStream struct {
	hc     *http.Client
	url    string
	header http.Header
	obs    *observer
	local  mcp.Connection

	mu      sync.Mutex
	version string
	started bool
	wg      sync.WaitGroup
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
		l.version = init.ProtocolVersion
		l.mu.Unlock()
	}
}

// fromClient opens the stream when the client completes the handshake.
func (l *legacyStream) fromClient(ctx context.Context, m mcp.JSONRPCMessage) {
	req, ok := m.(*mcp.JSONRPCRequest)
	if !ok || req.Method != "notifications/initialized" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.version == "" || l.obs.sessionID() == "" {
		return
	}
	l.started = true
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.run(ctx, l.version)
	}()
}

// run reads the GET stream until it ends or ctx does; a server without
// one (405) is fine.
func (l *legacyStream) run(ctx context.Context, version string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return
	}
	for k, v := range l.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", l.obs.sessionID())
	req.Header.Set("MCP-Protocol-Version", version)
	resp, err := l.hc.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return
	}
	_ = readSSE(resp.Body, func(data []byte) error {
		msg, err := mcp.DecodeMessage(data)
		if err != nil {
			return nil // not a message: skipped
		}
		return l.local.Write(ctx, msg)
	})
}

// readSSE calls dispatch with the data of each event of an SSE stream
// (lines joined with "\n"), until the stream ends or dispatch fails.
// Lines are bounded by maxLine.
func readSSE(r io.Reader, dispatch func(data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4<<10), maxLine)
	var data []byte
	has := false
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if has {
				if err := dispatch(data); err != nil {
					return err
				}
			}
			data, has = data[:0], false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue // comments, event, id, retry
		}
		value = bytes.TrimPrefix(value, []byte(" "))
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
