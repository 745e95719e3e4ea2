package mcp

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// idLog records the ids of the server's requests to the client: as the
// server's sending middleware sees them before and after sending, and as
// the client receives them.
type idLog struct {
	mu       sync.Mutex
	before   map[string][]any
	after    map[string][]any
	received map[string][]any
}

func newIDLog() *idLog {
	return &idLog{before: map[string][]any{}, after: map[string][]any{}, received: map[string][]any{}}
}

func (l *idLog) add(m map[string][]any, method string, id any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m[method] = append(m[method], id)
}

// sending is server sending middleware that records each request's id
// before sending it, sends it (twice when twice is set) and records the id
// afterwards.
func (l *idLog) sending(twice bool) Middleware[ServerSession] {
	return func(next MethodHandler[ServerSession]) MethodHandler[ServerSession] {
		return func(ctx context.Context, ss *ServerSession, method string, params any) (any, error) {
			if isNotificationMethod(method) {
				return next(ctx, ss, method, params)
			}
			info, _ := RequestInfoFromContext(ctx)
			l.add(l.before, method, info.ID)
			if twice {
				if _, err := next(ctx, ss, method, params); err != nil {
					return nil, err
				}
			}
			res, err := next(ctx, ss, method, params)
			info, _ = RequestInfoFromContext(ctx)
			l.add(l.after, method, info.ID)
			return res, err
		}
	}
}

// receiving is client receiving middleware that records the id of each
// request the client receives.
func (l *idLog) receiving() Middleware[ClientSession] {
	return func(next MethodHandler[ClientSession]) MethodHandler[ClientSession] {
		return func(ctx context.Context, cs *ClientSession, method string, params any) (any, error) {
			if !isNotificationMethod(method) {
				info, _ := RequestInfoFromContext(ctx)
				l.add(l.received, method, info.ID)
			}
			return next(ctx, cs, method, params)
		}
	}
}

// check checks that method was sent with the id its middleware saw before
// sending, and, sent twice, the second time with a new id, which the
// middleware sees afterwards.
func (l *idLog) check(t *testing.T, method string, twice bool) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	before, after, received := l.before[method], l.after[method], l.received[method]
	sends := 1
	if twice {
		sends = 2
	}
	if len(before) != 1 || before[0] == nil {
		t.Fatalf("%s: ids seen before sending: %v, want one", method, before)
	}
	if len(received) != sends || received[0] != before[0] {
		t.Fatalf("%s: client received ids %v, want %d starting with %v", method, received, sends, before[0])
	}
	if twice && received[1] == received[0] {
		t.Errorf("%s: the request sent twice had the same id %v both times", method, received[0])
	}
	if len(after) != 1 || after[0] != received[sends-1] {
		t.Errorf("%s: id after sending %v, want %v", method, after, received[sends-1])
	}
}

func isNotificationMethod(method string) bool {
	return strings.HasPrefix(method, "notifications/")
}

// TestServerSendingMiddlewareKnowsRequestIDBeforeSending checks that a
// server's sending middleware can read the id of a request to the client
// (elicitation, sampling, roots, ping) before calling the next handler, in
// a legacy session over each kind of connection; that the client receives
// that id; and that middleware sending the request twice sends it with two
// ids.
func TestServerSendingMiddlewareKnowsRequestIDBeforeSending(t *testing.T) {
	methods := []string{MethodElicit, MethodCreateMessage, MethodListRoots, MethodPing}
	for _, transport := range []string{"inmemory", "pipes", "http"} {
		for _, twice := range []bool{false, true} {
			name := transport + "/once"
			if twice {
				name = transport + "/twice"
			}
			t.Run(name, func(t *testing.T) {
				l := newIDLog()
				server := NewServer("s", "v1", nil)
				server.AddTools(NewTool("ask", "asks the client", func(ctx context.Context, ss *ServerSession, in struct{}) ([]*Content, error) {
					if _, err := ss.Elicit(ctx, &ElicitParams{Message: "ok?", RequestedSchema: &ElicitationSchema{Type: "object"}}); err != nil {
						return nil, err
					}
					if _, err := ss.CreateMessage(ctx, &CreateMessageParams{MaxTokens: 1, Messages: []*SamplingMessage{{Role: RoleUser, Content: []*Content{NewTextContent("hi")}}}}); err != nil {
						return nil, err
					}
					if _, err := ss.ListRoots(ctx, nil); err != nil {
						return nil, err
					}
					if err := ss.Ping(ctx, nil); err != nil {
						return nil, err
					}
					return []*Content{NewTextContent("asked")}, nil
				}))
				server.AddSendingMiddleware(l.sending(twice))
				client := NewClient("c", "v1", &ClientOptions{
					ProtocolVersion: Version20251125,
					ElicitationHandler: func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error) {
						return &ElicitResult{Action: ElicitActionDecline}, nil
					},
					CreateMessageHandler: func(context.Context, *ClientSession, *CreateMessageParams) (*CreateMessageResult, error) {
						return &CreateMessageResult{Role: RoleAssistant, Content: []*Content{NewTextContent("hello")}, Model: "m"}, nil
					},
				})
				client.AddRoots(&Root{URI: "file:///work", Name: "work"})
				client.AddMiddleware(l.receiving())
				cs := connectOver(t, transport, server, client)
				if res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, nil); err != nil || res.IsError {
					t.Fatalf("ask: %v %+v", err, res)
				}
				for _, m := range methods {
					l.check(t, m, twice)
				}
			})
		}
	}
}

// TestServerRequestIDInTasksAndModernRequests checks the two other ways a
// server asks the client: the handler of a 2025-11-25 task sends a request
// whose id its sending middleware knows before sending; a 2026-07-28
// request asks through an input-required result, which sends no request
// and has no id.
func TestServerRequestIDInTasksAndModernRequests(t *testing.T) {
	t.Run("legacy task", func(t *testing.T) {
		s, release := taskTestServer(fastTasks)
		close(release)
		l := newIDLog()
		s.AddSendingMiddleware(l.sending(false))
		opts := taskClientOptions(Version20251125, nil)
		opts.Capabilities.Elicitation = &ElicitationCapability{}
		client := NewClient("c", "v1", opts)
		client.AddMiddleware(l.receiving())
		cs := connectOver(t, "inmemory", s, client)
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if res, err := cs.CallTool(context.Background(), "confirm", nil, nil); err != nil || res.Content[0].Text != "accept true" {
			t.Fatalf("confirm: %+v, %v", res, err)
		}
		l.check(t, MethodElicit, false)
	})
	t.Run("modern", func(t *testing.T) {
		l := newIDLog()
		server := NewServer("s", "v1", nil)
		server.AddTools(NewTool("ask", "asks the client", func(ctx context.Context, ss *ServerSession, in struct{}) ([]*Content, error) {
			if _, err := ss.Elicit(ctx, &ElicitParams{Message: "ok?", RequestedSchema: &ElicitationSchema{Type: "object"}}); err != nil {
				return nil, err
			}
			return []*Content{NewTextContent("asked")}, nil
		}))
		server.AddSendingMiddleware(l.sending(false))
		client := NewClient("c", "v1", &ClientOptions{
			ElicitationHandler: func(context.Context, *ClientSession, *ElicitParams) (*ElicitResult, error) {
				return &ElicitResult{Action: ElicitActionDecline}, nil
			},
		})
		cs := connectOver(t, "inmemory", server, client)
		if res, err := cs.CallTool(context.Background(), "ask", map[string]any{}, nil); err != nil || res.IsError {
			t.Fatalf("ask: %v %+v", err, res)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if before := l.before[MethodElicit]; len(before) == 0 || before[0] != nil {
			t.Errorf("ids seen before asking through an input-required result: %v, want nil", before)
		}
	})
}
