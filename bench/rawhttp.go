package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
)

// maxBody bounds the response bodies the raw client reads.
const maxBody = 1 << 20

// A RawClient is the SDK-neutral load generator: it sends hand-built
// JSON-RPC POSTs to a streamable HTTP endpoint and checks the answers. In the
// legacy era it makes one session with initialize and then sends every call
// with that session's id; in the modern era every call is a stateless POST
// carrying the _meta and the Mcp-Method and Mcp-Name headers 2026-07-28
// requires.
type RawClient struct {
	// URL is the endpoint.
	URL string
	// HTTP sends the requests.
	HTTP *http.Client
	// Era selects the protocol generation.
	Era Era

	sessionID string
	nextID    int
}

// Start prepares the client: in the legacy era it runs the initialize
// handshake and keeps the session id; in the modern era it does nothing.
func (c *RawClient) Start(ctx context.Context) error {
	if c.Era == Modern {
		return nil
	}
	resp, err := c.post(ctx, "initialize", "", InitializeRequest(c.id()))
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	c.sessionID = resp.Header.Get("Mcp-Session-Id")
	if _, err := readResult(resp); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	resp, err = c.post(ctx, "notifications/initialized", "", InitializedNotification())
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	drain(resp)
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("notifications/initialized: status %s, want 202", resp.Status)
	}
	return nil
}

// Call makes one tools/call of EchoTool with EchoText and checks the result.
func (c *RawClient) Call(ctx context.Context) error {
	body := LegacyCallRequest(c.id())
	if c.Era == Modern {
		body = ModernCallRequest(c.id())
	}
	resp, err := c.post(ctx, "tools/call", EchoTool, body)
	if err != nil {
		return err
	}
	result, err := readResult(resp)
	if err != nil {
		return err
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return fmt.Errorf("%w: result %s: %v", ErrMismatch, result, err)
	}
	var texts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			texts = append(texts, c.Text)
		}
	}
	return checkEcho(texts, r.IsError, EchoText)
}

// Discover sends one 2026-07-28 server/discover request, reads the answer
// fully and checks that the server lists ModernVersion. It needs a client
// of the modern era.
func (c *RawClient) Discover(ctx context.Context) error {
	if c.Era != Modern {
		return errors.New("server/discover needs a client of the modern era")
	}
	resp, err := c.post(ctx, "server/discover", "", DiscoverRequest(c.id()))
	if err != nil {
		return err
	}
	result, err := readResult(resp)
	if err != nil {
		return err
	}
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return fmt.Errorf("%w: result %s: %v", ErrMismatch, result, err)
	}
	if !slices.Contains(r.SupportedVersions, ModernVersion) {
		return fmt.Errorf("%w: server/discover lists %q, not %s", ErrMismatch, r.SupportedVersions, ModernVersion)
	}
	return nil
}

// Close ends a legacy session with DELETE; servers that do not allow it
// (405) are fine.
func (c *RawClient) Close() error {
	if c.sessionID == "" {
		return nil
	}
	req, err := http.NewRequest(http.MethodDelete, c.URL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", c.sessionID)
	req.Header.Set("MCP-Protocol-Version", LegacyVersion)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	drain(resp)
	c.sessionID = ""
	if resp.StatusCode >= 300 && resp.StatusCode != http.StatusMethodNotAllowed {
		return fmt.Errorf("DELETE: status %s", resp.Status)
	}
	return nil
}

func (c *RawClient) id() int {
	c.nextID++
	return c.nextID
}

// post sends one JSON-RPC message with the headers of the client's era.
func (c *RawClient) post(ctx context.Context, method, name string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if c.Era == Modern {
		h.Set("MCP-Protocol-Version", ModernVersion)
		h.Set("Mcp-Method", method)
		if name != "" {
			h.Set("Mcp-Name", name)
		}
	} else if method != "initialize" {
		h.Set("MCP-Protocol-Version", LegacyVersion)
	}
	if c.sessionID != "" {
		h.Set("Mcp-Session-Id", c.sessionID)
	}
	return c.HTTP.Do(req)
}

// drain reads and closes a body so its connection can be reused.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
}

// readResult reads a JSON-RPC response, sent as JSON or as the first
// message of an SSE stream (past a priming event), and returns its result; a JSON-RPC error or an HTTP
// error status is an error.
func readResult(resp *http.Response) (json.RawMessage, error) {
	defer drain(resp)
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s: %.200s", resp.Status, body)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct == "text/event-stream" {
		if body, err = firstSSEMessage(body); err != nil {
			return nil, err
		}
	}
	return ParseResponse(body)
}

// ParseResponse decodes one JSON-RPC response and returns its result, or
// an error carrying its error object.
func ParseResponse(msg []byte) (json.RawMessage, error) {
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoResponse, err)
	}
	if r.JSONRPC != "2.0" {
		return nil, fmt.Errorf("%w: jsonrpc member %q", ErrNoResponse, r.JSONRPC)
	}
	if r.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %s: %s", strconv.Itoa(r.Error.Code), r.Error.Message)
	}
	if len(r.Result) == 0 {
		return nil, fmt.Errorf("%w: neither result nor error", ErrNoResponse)
	}
	return r.Result, nil
}
