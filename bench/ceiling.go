package bench

import (
	"encoding/json"
	"io"
	"net/http"
)

// Ceiling is a bare net/http handler that does the least any MCP server
// must: it decodes the JSON-RPC request and writes a fixed response with
// the request's id. Load against it is the ceiling the SDKs are compared
// with. It answers initialize with a fixed session id, notifications with
// 202 and every other request with EchoText as a tool result.
type Ceiling struct{}

// ceilingRequest is the part of a JSON-RPC request the ceiling decodes.
type ceilingRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

var (
	ceilingResult = []byte(`,"result":{"content":[{"type":"text","text":"` + EchoText + `"}]}}`)
	ceilingInit   = []byte(`,"result":{"protocolVersion":"` + LegacyVersion +
		`","capabilities":{"tools":{}},"serverInfo":{"name":"ceiling","version":"1.0.0"}}}`)
)

// ServeHTTP implements http.Handler.
func (Ceiling) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req ceilingRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&req); err != nil || req.JSONRPC != "2.0" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	tail := ceilingResult
	if req.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "ceiling")
		tail = ceilingInit
	}
	w.Header().Set("Content-Type", "application/json")
	buf := make([]byte, 0, 32+len(req.ID)+len(tail))
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, req.ID...)
	buf = append(buf, tail...)
	w.Write(buf)
}
