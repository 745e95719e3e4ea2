package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// Backends are the shared pieces one instance of a cluster is built with.
// Every field must be set; instances of one cluster share the same
// storage (one Redis, or the same in-memory objects).
type Backends struct {
	EventBus      mcp.EventBus
	SessionRouter mcp.SessionRouter
	SessionStore  mcp.SessionStore
	EventStore    mcp.EventStore
	TaskStore     mcp.TaskStore
}

// A Cluster is several instances of one MCP server, each with its own
// Server and StreamableHTTPHandler, behind a round-robin reverse proxy
// that keeps nothing sticky.
type Cluster struct {
	// URL is the proxy's MCP endpoint.
	URL string
	// Instances are the MCP endpoints of the instances, in order.
	Instances []string
	// Servers and Handlers are the instances' own.
	Servers  []*mcp.Server
	Handlers []*mcp.StreamableHTTPHandler

	// EventReads counts the reads (After) of the instances' event
	// stores; EventWaits reports whether they are mcp.EventWaiters.
	EventReads atomic.Int64
	EventWaits bool
	// SessionLoads counts the reads (Load) of the instances' session
	// stores.
	SessionLoads atomic.Int64

	// counting reports whether every instance's router is an
	// mcp.CountingSessionRouter: a change announced by one instance is
	// then seen by all once its request is answered.
	counting bool

	mu        sync.Mutex
	rounds    map[string][]int // tool "ask": the instances that ran each call's rounds, by call tag
	cancelled chan string      // tool "wait": task ids whose handler saw cancellation
}

// StateKey is the requestState key every instance of a Cluster shares.
var StateKey = []byte("0123456789abcdef0123456789abcdef")

// ClusterOptions configure StartCluster. Nil means defaults.
type ClusterOptions struct {
	// Instances is the number of instances (default 3).
	Instances int
	// JSONResponse answers legacy requests with JSON, so that messages a
	// handler sends the client go to the GET stream, wherever it is held.
	JSONResponse bool
}

// StartCluster starts the instances and the proxy; t's cleanup stops them.
// The server has the tools "echo", "ask" (elicits a string "v" and
// returns it), "steps" (logs three messages, then returns), "pause" (logs,
// closes its SSE stream, sleeps "ms" milliseconds (default 300), logs
// again and returns) and "wait" (a task that
// runs until cancelled).
func StartCluster(t testing.TB, newBackends func(t testing.TB, i int) Backends, opts *ClusterOptions) *Cluster {
	t.Helper()
	n, jsonResp := 3, false
	if opts != nil {
		if opts.Instances > 0 {
			n = opts.Instances
		}
		jsonResp = opts.JSONResponse
	}
	c := &Cluster{rounds: map[string][]int{}, cancelled: make(chan string, 16), counting: true}
	var targets []*url.URL
	for i := range n {
		b := newBackends(t, i)
		if _, ok := b.SessionRouter.(mcp.CountingSessionRouter); !ok {
			c.counting = false
		}
		s := mcp.NewServer("scaleout", "v1", &mcp.ServerOptions{
			EventBus:        b.EventBus,
			RequestStateKey: StateKey,
			Tasks:           &mcp.TaskOptions{Store: b.TaskStore, PollInterval: 20 * time.Millisecond},
		})
		c.addTools(s, i)
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
			SessionStore:  c.countLoads(b.SessionStore),
			SessionRouter: b.SessionRouter,
			EventStore:    c.countReads(b.EventStore),
			JSONResponse:  jsonResp,
			WriteTimeout:  10 * time.Second,
		})
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		hs := httptest.NewServer(mux)
		t.Cleanup(func() {
			// Closing at the end of the test: an error tells nothing the
			// test has not checked.
			_ = h.Close()
			_ = s.Close()
			hs.CloseClientConnections()
			hs.Close()
		})
		u, _ := url.Parse(hs.URL)
		targets = append(targets, u)
		c.Instances = append(c.Instances, hs.URL+"/mcp")
		c.Servers = append(c.Servers, s)
		c.Handlers = append(c.Handlers, h)
	}
	ps := httptest.NewServer(RoundRobin(targets))
	t.Cleanup(func() {
		ps.CloseClientConnections()
		ps.Close()
	})
	c.URL = ps.URL + "/mcp"
	return c
}

// countReads returns s counting its reads in c.EventReads.
func (c *Cluster) countReads(s mcp.EventStore) mcp.EventStore {
	if s == nil {
		return nil
	}
	_, c.EventWaits = s.(mcp.EventWaiter)
	return counted(s, &c.EventReads)
}

// countLoads returns s counting its reads in c.SessionLoads.
func (c *Cluster) countLoads(s mcp.SessionStore) mcp.SessionStore {
	if s == nil {
		return nil
	}
	return countingSessions{s, &c.SessionLoads}
}

type countingSessions struct {
	mcp.SessionStore
	loads *atomic.Int64
}

var _ mcp.SessionStore = countingSessions{}

func (c countingSessions) Load(ctx context.Context, id string, ttl time.Duration) (*mcp.SessionState, error) {
	c.loads.Add(1)
	return c.SessionStore.Load(ctx, id, ttl)
}

func (c *Cluster) addTools(s *mcp.Server, instance int) {
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(s)}}
	}
	obj := json.RawMessage(`{"type":"object"}`)
	args := func(p *mcp.CallToolParams) map[string]any {
		var m map[string]any
		if raw, ok := p.Arguments.(json.RawMessage); ok {
			_ = json.Unmarshal(raw, &m) // not an object (the schema asks for one): no arguments
		}
		return m
	}
	s.AddTools(
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "echo", InputSchema: obj},
			Handler: func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return text(fmt.Sprint(args(p)["text"])), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "ask", InputSchema: obj},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				tag := fmt.Sprint(args(p)["tag"])
				c.mu.Lock()
				c.rounds[tag] = append(c.rounds[tag], instance)
				c.mu.Unlock()
				res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "v?", RequestedSchema: &mcp.ElicitationSchema{
					Type: "object", Properties: map[string]*mcp.PrimitiveSchema{"v": {Type: "string"}}}})
				if err != nil {
					return nil, err
				}
				return text(fmt.Sprint(res.Content["v"])), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "steps", InputSchema: obj},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				for i := 1; i <= 3; i++ {
					//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the cluster test checks it across instances
					if err := ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: "info", Data: fmt.Sprintf("step %d", i)}); err != nil {
						return nil, err
					}
				}
				return text("done"), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "pause", InputSchema: obj},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				pause := 300 * time.Millisecond
				if ms, ok := args(p)["ms"].(float64); ok && ms > 0 && ms < 5000 {
					pause = time.Duration(ms) * time.Millisecond
				}
				log := func(s string) error {
					//lint:ignore SA1019 SEP-2577 deprecates logging to the client but every protocol version still has it; the cluster test checks it across instances
					return ss.LoggingMessage(ctx, &mcp.LoggingMessageParams{Level: "info", Data: s})
				}
				if err := log("before"); err != nil {
					return nil, err
				}
				if err := mcp.CloseSSEStream(ctx, 100*time.Millisecond); err != nil {
					return nil, err
				}
				time.Sleep(pause) // the client resumes meanwhile, elsewhere
				if err := log("after"); err != nil {
					return nil, err
				}
				return text("resumed"), nil
			}},
		&mcp.ServerTool{Tool: &mcp.Tool{Name: "wait", InputSchema: obj, Execution: &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}},
			Handler: func(ctx context.Context, ss *mcp.ServerSession, _ *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				select {
				case <-ctx.Done():
					c.cancelled <- ss.TaskID()
					return nil, ctx.Err()
				case <-time.After(20 * time.Second):
					return text("not cancelled"), nil
				}
			}},
	)
}

// askRounds returns the instances that ran the rounds of the "ask" call
// tagged tag.
func (c *Cluster) askRounds(tag string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.rounds[tag]...)
}

// rawExchange is one HTTP exchange with an instance, for the tests that
// need exact bytes.
type rawExchange struct {
	status int
	header http.Header
	events []sseEvent // an SSE response's events
	body   string     // a JSON response
}

type sseEvent struct{ id, data string }

// raw sends one request straight to an endpoint.
func raw(t *testing.T, method, endpoint, sid string, hdr map[string]string, body string) rawExchange {
	t.Helper()
	req, err := http.NewRequest(method, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s %s: %v", method, endpoint, err)
	}
	defer resp.Body.Close()
	x := rawExchange{status: resp.StatusCode, header: resp.Header}
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, block := range strings.Split(sb.String(), "\n\n") {
			var ev sseEvent
			for _, line := range strings.Split(block, "\n") {
				if v, ok := strings.CutPrefix(line, "id:"); ok {
					ev.id = strings.TrimSpace(v)
				} else if v, ok := strings.CutPrefix(line, "data:"); ok {
					ev.data += strings.TrimSpace(v)
				}
			}
			if ev.id != "" || ev.data != "" {
				x.events = append(x.events, ev)
			}
		}
	} else {
		x.body = sb.String()
	}
	return x
}

// rawSession initializes a legacy session on endpoint and returns its id.
func rawSession(t *testing.T, endpoint string) string {
	t.Helper()
	return rawSessionVersion(t, endpoint, "2025-11-25")
}

// rawSessionVersion initializes a legacy session of the given protocol
// version on endpoint and returns its id.
func rawSessionVersion(t *testing.T, endpoint, version string) string {
	t.Helper()
	x := raw(t, http.MethodPost, endpoint, "", nil,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	sid := x.header.Get("Mcp-Session-Id")
	if x.status != http.StatusOK || sid == "" || !strings.Contains(x.body+fmt.Sprint(x.events), `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize (%s): status %d, session %q, %+v", version, x.status, sid, x)
	}
	hdr := map[string]string{"MCP-Protocol-Version": version}
	if x := raw(t, http.MethodPost, endpoint, sid, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); x.status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d", x.status)
	}
	return sid
}
