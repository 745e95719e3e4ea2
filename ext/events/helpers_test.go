package events

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/goldentest"
	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// versions are the protocol revisions every wire test runs in: the last
// session-based one and the stateless one.
var versions = []string{mcp.Version20251125, mcp.Version20260728}

// mailArgs are the arguments of email.received: an optional sender filter.
type mailArgs struct {
	From string `json:"from,omitempty"`
}

// mail is the payload of email.received.
type mail struct {
	From    string `json:"from"`
	Subject string `json:"subject"`
}

// tick is the payload of the tick types.
type tick struct {
	N int `json:"n"`
}

// newTestServer returns an mcp.Server with the extension on and three
// types: email.received (poll and push, filtered by sender),
// tick.poll (poll only) and tick.push (push only).
func newTestServer(opts *ServerOptions, mcpOpts *mcp.ServerOptions) (*mcp.Server, *Server) {
	s := mcp.NewServer("events-test", "v1.0.0", mcpOpts)
	es := NewServer(s, opts)
	es.AddTypes(
		NewType("email.received", "An email arrived in the inbox", &TypeOptions[mailArgs, mail]{
			Match: func(a mailArgs, m mail) bool { return a.From == "" || a.From == m.From },
		}),
		NewType[struct{}, tick]("tick.poll", "A tick, for polling", &TypeOptions[struct{}, tick]{Delivery: []string{DeliveryPoll}}),
		NewType[struct{}, tick]("tick.push", "A tick, for push streams", &TypeOptions[struct{}, tick]{Delivery: []string{DeliveryPush}}),
	)
	return s, es
}

// a connection of a test client to a test server over in-memory
// transports.
type conn struct {
	cs  *mcp.ClientSession
	ec  *Client
	log *goldentest.Buffer
}

// connectTo connects a client speaking version to s, logging what the
// client exchanges.
func connectTo(t *testing.T, s *mcp.Server, version string, copts *ClientOptions) *conn {
	t.Helper()
	return connectWith(t, s, &mcp.ClientOptions{ProtocolVersion: version}, copts)
}

// connectWith is connectTo with the client's options.
func connectWith(t *testing.T, s *mcp.Server, mopts *mcp.ClientOptions, copts *ClientOptions) *conn {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient("events-client", "v1.0.0", mopts)
	ec := EnableClient(c, copts)
	log := &goldentest.Buffer{}
	cs, err := c.Connect(ctx, mcp.NewLoggingTransport(ct, log))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return &conn{cs: cs, ec: ec, log: log}
}

// emit emits or fails the test.
func emit(t *testing.T, es *Server, name string, data any, opts *EmitOptions) *Occurrence {
	t.Helper()
	o, err := es.Emit(context.Background(), name, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// raw calls method with params and returns the result as a JSON object.
func raw(t *testing.T, cs *mcp.ClientSession, method string, params any) map[string]any {
	t.Helper()
	var res json.RawMessage
	if err := cs.Call(context.Background(), method, params, &res); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var m map[string]any
	if err := strictjson.Unmarshal(res, &m); err != nil {
		t.Fatalf("%s result %s: %v", method, res, err)
	}
	return m
}

// rpcError returns the JSON-RPC error of calling method, failing the test
// if the call succeeds.
func rpcError(t *testing.T, cs *mcp.ClientSession, method string, params any) *mcp.JSONRPCError {
	t.Helper()
	var res json.RawMessage
	err := cs.Call(context.Background(), method, params, &res)
	var e *mcp.JSONRPCError
	if !errors.As(err, &e) {
		t.Fatalf("%s: got %v (result %s), want a JSON-RPC error", method, err, res)
	}
	return e
}

// errorData decodes the data of a JSON-RPC error.
func errorData(t *testing.T, e *mcp.JSONRPCError) map[string]any {
	t.Helper()
	var m map[string]any
	if len(e.Data) == 0 {
		return nil
	}
	if err := strictjson.Unmarshal(e.Data, &m); err != nil {
		t.Fatalf("error data %s: %v", e.Data, err)
	}
	return m
}

// within fails the test if ch yields nothing within 10 seconds: the
// guard of a wait on an event, so that a bug fails rather than hangs.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
