package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// ErrNotSupported is returned by the client functions for a server that
// declared neither the extension nor the top-level "events" capability:
// a client must not send it events/* requests.
var ErrNotSupported = errors.New("events: the server does not support the Events extension")

// A Client is the client side of the extension for one mcp.Client: it
// routes the notifications of push streams to the Stream that opened
// them. Make one with EnableClient.
type Client struct {
	mu      sync.Mutex
	streams map[streamKey]*streamQueue
}

// A streamKey names a push stream: its session and its request's id.
type streamKey struct {
	cs *mcp.ClientSession
	id any // a string or an int64
}

// ClientOptions configure EnableClient; nil means defaults.
type ClientOptions struct {
	// ListChanged, if set, is called when the server tells that its event
	// types changed (NotificationListChanged: on a subscriptions/listen
	// stream that asked for it with the ListenFilter member, or on a
	// session of an earlier revision).
	ListChanged func(ctx context.Context, cs *mcp.ClientSession)
}

// EnableClient declares the extension for c, handles the notifications of
// push streams and of list changes, and returns the Client that streams
// with it. Call it before connecting.
func EnableClient(c *mcp.Client, opts *ClientOptions) *Client {
	ec := &Client{streams: make(map[streamKey]*streamQueue)}
	var listChanged func(context.Context, *mcp.ClientSession)
	if opts != nil {
		listChanged = opts.ListChanged
	}
	c.AddExtension(ExtensionID, nil,
		mcp.NewClientNotification(NotificationListChanged, func(ctx context.Context, cs *mcp.ClientSession, _ *ListChangedParams) {
			if listChanged != nil {
				listChanged(ctx, cs)
			}
		}, nil),
		mcp.NewClientNotification(NotificationActive, routeTo[ActiveParams](ec, NotificationActive), nil),
		mcp.NewClientNotification(NotificationEvent, routeTo[Occurrence](ec, NotificationEvent), nil),
		mcp.NewClientNotification(NotificationHeartbeat, routeTo[HeartbeatParams](ec, NotificationHeartbeat), nil),
		mcp.NewClientNotification(NotificationError, routeTo[ErrorParams](ec, NotificationError), nil),
		mcp.NewClientNotification(NotificationTerminated, routeTo[ErrorParams](ec, NotificationTerminated), nil),
	)
	return ec
}

// metaOf returns the _meta of a stream notification's params.
func metaOf(p any) *mcp.Meta {
	switch p := p.(type) {
	case *ActiveParams:
		return &p.Meta
	case *Occurrence:
		return &p.Meta
	case *HeartbeatParams:
		return &p.Meta
	case *ErrorParams:
		return &p.Meta
	}
	return nil
}

// routeTo returns the handler of a stream notification: it queues the
// params for the stream its subscription id names, and drops those of
// streams no longer open.
func routeTo[P any](ec *Client, method string) func(context.Context, *mcp.ClientSession, *P) {
	return func(ctx context.Context, cs *mcp.ClientSession, p *P) {
		id := metaOf(p).SubscriptionID
		ec.mu.Lock()
		q := ec.streams[streamKey{cs, id}]
		ec.mu.Unlock()
		if q != nil {
			q.push(streamMessage{method: method, params: p})
		}
	}
}

// supported reports whether the server cs is connected to declared the
// extension, in its extensions map or at the top level.
func supported(cs *mcp.ClientSession) bool {
	if _, ok := cs.ServerExtension(ExtensionID); ok {
		return true
	}
	caps := cs.ServerCapabilities()
	return caps != nil && caps.Other[LegacyCapability] != nil
}

// maxListPages bounds the pages ListTypes reads from a server that never
// stops paginating.
const maxListPages = 1000

// ListTypes returns every event type the server offers, reading all pages
// of events/list.
func ListTypes(ctx context.Context, cs *mcp.ClientSession) ([]*EventType, error) {
	if !supported(cs) {
		return nil, ErrNotSupported
	}
	var out []*EventType
	cursor := ""
	for range maxListPages {
		var res ListResult
		if err := cs.Call(ctx, MethodList, &ListParams{Cursor: cursor}, &res); err != nil {
			return nil, fmt.Errorf("events: %w", err)
		}
		out = append(out, res.Events...)
		if res.NextCursor == "" {
			return out, nil
		}
		if res.NextCursor == cursor {
			return nil, fmt.Errorf("events: events/list returned the same cursor %q twice", cursor)
		}
		cursor = res.NextCursor
	}
	return nil, fmt.Errorf("events: events/list did not end after %d pages", maxListPages)
}

// Poll sends one events/poll request and returns its result; nil
// arguments are sent as {}.
func Poll(ctx context.Context, cs *mcp.ClientSession, p *PollParams) (*PollResult, error) {
	if !supported(cs) {
		return nil, ErrNotSupported
	}
	if p.Arguments == nil { // arguments are required in practice
		c := *p
		c.Arguments = json.RawMessage("{}")
		p = &c
	}
	var res PollResult
	if err := cs.Call(ctx, MethodPoll, p, &res); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	return &res, nil
}

// encodeArguments returns the JSON of a subscription's arguments: {} for
// nil.
func encodeArguments(args any) (json.RawMessage, error) {
	switch a := args.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		return a, nil
	}
	b, err := strictjson.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("events: encoding arguments: %w", err)
	}
	return b, nil
}

// maxAgeMs returns the maxAgeMs member of a poll or stream request for a
// maximum age: nil (absent, no replay floor) unless it is positive.
func maxAgeMs(d time.Duration) *int64 {
	if d <= 0 {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}

// asTerminated converts the JSON-RPC error of a poll or stream request to
// a TerminatedError, and returns other errors unchanged.
func asTerminated(err error) error {
	var rpc *mcp.JSONRPCError
	if !errors.As(err, &rpc) {
		return err
	}
	var data any
	if len(rpc.Data) > 0 {
		_ = strictjson.Unmarshal(rpc.Data, &data) // data is informative only
	}
	return terminated(int64(rpc.Code), rpc.Message, data)
}
