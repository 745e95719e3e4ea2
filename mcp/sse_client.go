package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// SSEClientTransportOptions configure an SSEClientTransport. A nil
// *SSEClientTransportOptions means defaults.
type SSEClientTransportOptions struct {
	// HTTPClient sends the requests (default DefaultHTTPClient()). Its
	// Timeout, if any, also bounds the stream: prefer none.
	HTTPClient *http.Client
	// Header is added to every request, for example Authorization.
	Header http.Header
	// MaxEventSize bounds one SSE event (default DefaultMaxSSEEventSize).
	MaxEventSize int
}

// An SSEClientTransport is the client side of the HTTP+SSE transport of
// protocol 2024-11-05, for servers that do not offer streamable HTTP.
type SSEClientTransport struct {
	url  *url.URL
	opts SSEClientTransportOptions
}

// NewSSEClientTransport returns a transport to the SSE endpoint at rawURL.
func NewSSEClientTransport(rawURL string, opts *SSEClientTransportOptions) (*SSEClientTransport, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("mcp: SSE endpoint: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("mcp: SSE endpoint %q: scheme must be http or https", rawURL)
	}
	t := &SSEClientTransport{url: u}
	if opts != nil {
		t.opts = *opts
	}
	if t.opts.HTTPClient == nil {
		t.opts.HTTPClient = DefaultHTTPClient()
	}
	if t.opts.MaxEventSize <= 0 {
		t.opts.MaxEventSize = DefaultMaxSSEEventSize
	}
	return t, nil
}

// Connect opens the stream and waits for the server's endpoint event. The
// endpoint must be on the same origin as the stream.
func (t *SSEClientTransport) Connect(ctx context.Context) (Connection, error) {
	streamCtx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, t.url.String(), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	t.setHeaders(req.Header)
	req.Header["Accept"] = hdrSSE
	stop := context.AfterFunc(ctx, cancel) // until the endpoint arrives
	resp, err := t.opts.HTTPClient.Do(req)
	if err != nil {
		stop()
		cancel()
		return nil, fmt.Errorf("mcp: GET %s: %w", t.url, err)
	}
	c := &sseClientConn{t: t, body: resp.Body, cancel: cancel, events: newSSEReader(resp.Body, t.opts.MaxEventSize)}
	endpoint, err := c.awaitEndpoint(resp)
	stopped := stop()
	if err == nil && !stopped {
		err = ctx.Err()
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	c.endpoint = endpoint
	return c, nil
}

func (t *SSEClientTransport) setHeaders(h http.Header) {
	for k, vs := range t.opts.Header {
		h[k] = append([]string(nil), vs...)
	}
}

// sseClientConn is the connection of an SSEClientTransport.
type sseClientConn struct {
	t        *SSEClientTransport
	endpoint string
	body     io.ReadCloser
	events   *sseReader // used by Read only
	cancel   context.CancelFunc
	once     sync.Once
}

// awaitEndpoint reads the stream up to the endpoint event and resolves it.
func (c *sseClientConn) awaitEndpoint(resp *http.Response) (string, error) {
	if resp.StatusCode != http.StatusOK {
		return "", httpStatusError(resp.Request, resp, nil)
	}
	if !isMediaType(resp.Header.Get("Content-Type"), mediaSSE) {
		return "", fmt.Errorf("mcp: GET %s: %s, Content-Type %q: not an SSE endpoint", c.t.url, resp.Status, resp.Header.Get("Content-Type"))
	}
	for {
		ev, err := c.events.Next()
		if err != nil {
			return "", fmt.Errorf("mcp: GET %s: no endpoint event: %w", c.t.url, err)
		}
		if ev.Name != "endpoint" {
			continue
		}
		u, err := c.t.url.Parse(string(bytes.TrimSpace(ev.Data)))
		if err != nil {
			return "", fmt.Errorf("mcp: bad endpoint event %q: %w", ev.Data, err)
		}
		if u.Scheme != c.t.url.Scheme || u.Host != c.t.url.Host {
			return "", fmt.Errorf("mcp: endpoint %q is not on the origin of %s", u, c.t.url)
		}
		return u.String(), nil
	}
}

// Read returns the next message event of the stream.
func (c *sseClientConn) Read(context.Context) (jsonrpc2.Message, error) {
	for {
		ev, err := c.events.Next()
		if err != nil {
			return nil, err
		}
		if ev.Name != "message" || len(ev.Data) == 0 {
			continue
		}
		return jsonrpc2.Decode(ev.Data)
	}
}

// Write POSTs a message to the endpoint.
func (c *sseClientConn) Write(ctx context.Context, msg jsonrpc2.Message) error {
	body, err := jsonrpc2.Encode(msg)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	c.t.setHeaders(req.Header)
	req.Header["Content-Type"] = hdrJSON
	resp, err := c.t.opts.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("mcp: POST %s: %w", c.endpoint, err)
	}
	defer drainClose(resp.Body)
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		if resp.StatusCode == http.StatusNotFound {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return fmt.Errorf("%w: POST %s: %s", ErrSessionExpired, c.endpoint, bytes.TrimSpace(b))
		}
		return httpStatusError(req, resp, nil)
	}
	return nil
}

// Close ends the stream.
func (c *sseClientConn) Close() error {
	c.once.Do(func() {
		c.cancel()
		_ = c.body.Close() // the stream is abandoned: its close error tells nothing
	})
	return nil
}
