package events

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// Defaults of ServerOptions.
const (
	// DefaultHeartbeat is how often a push stream carries a heartbeat; the
	// extension asks for one at least every 30 seconds.
	DefaultHeartbeat = 15 * time.Second
	// DefaultPollInterval is the nextPollMs of poll results.
	DefaultPollInterval = 5 * time.Second
	// DefaultMaxEvents is how many occurrences one poll returns at most,
	// and one read of a push stream takes.
	DefaultMaxEvents = 100
	// DefaultMaxStreams bounds the push streams a Server serves at once.
	DefaultMaxStreams = 10_000
	// DefaultPageSize is how many types a page of events/list holds.
	DefaultPageSize = 100
)

// ServerOptions configure NewServer; nil means defaults.
type ServerOptions struct {
	// Log keeps the occurrences (default a NewMemoryLog). Instances of a
	// server behind a load balancer share one.
	Log Log
	// Heartbeat is the interval of push-stream heartbeats (default
	// DefaultHeartbeat; at most 30 s is what clients expect).
	Heartbeat time.Duration
	// PollInterval is the nextPollMs poll results suggest (default
	// DefaultPollInterval).
	PollInterval time.Duration
	// MaxEvents bounds the occurrences of one poll result, whatever the
	// client asks (default DefaultMaxEvents).
	MaxEvents int
	// MaxStreams bounds the push streams served at once; one more is
	// refused with ResourceExhausted (default DefaultMaxStreams). Push
	// streams are not counted against mcp.ServerOptions.MaxInFlight, nor
	// against the HTTP handler's bound on subscriptions/listen streams.
	MaxStreams int
	// PageSize is how many types a page of events/list holds (default
	// DefaultPageSize).
	PageSize int
	// Authorize, if set, is asked before a subscription is served (a
	// poll, a push stream); an error that is not a JSON-RPC error is sent
	// as Forbidden.
	Authorize func(ctx context.Context, ss *mcp.ServerSession, t *EventType, args json.RawMessage) error
	// Webhooks, if set, serves events/subscribe and events/unsubscribe:
	// webhook delivery; see ext/events/webhook. Without it, types cannot
	// offer DeliveryWebhook, and events/subscribe is answered as by a
	// server without webhook delivery (NotFound for an unknown type, else
	// Unsupported), events/unsubscribe with NotFound.
	Webhooks Webhooks
}

// Webhooks serves webhook delivery for a Server (ext/events/webhook).
type Webhooks interface {
	// Subscribe serves events/subscribe for t, a type that offers
	// DeliveryWebhook; its result is sent as it is.
	Subscribe(ctx context.Context, ss *mcp.ServerSession, t *EventType, p *SubscribeParams) (any, error)
	// Unsubscribe serves events/unsubscribe.
	Unsubscribe(ctx context.Context, ss *mcp.ServerSession, p *UnsubscribeParams) (any, error)
}

// A Server serves the Events extension on an mcp.Server: it holds the
// event types, records their occurrences in its Log and answers the
// extension's methods. Make one with NewServer.
type Server struct {
	s    *mcp.Server
	opts ServerOptions

	mu    sync.RWMutex
	types map[string]*served

	streams  atomic.Int64
	closing  chan struct{}
	closeOne sync.Once
}

// A served is a type added to a Server; its ending ends its push streams
// when it is removed or changed.
type served struct {
	*Type
	*ending
}

// An ending ends the push streams of a type: it is shared by the served
// values of a type replaced by an identical one.
type ending struct {
	removed chan struct{}
	err     *mcp.JSONRPCError // set before removed is closed
}

// end ends the push streams of t with err.
func (t *served) end(err *mcp.JSONRPCError) {
	t.err = err
	close(t.removed)
}

// changed returns the error that ends the push streams of old when next
// replaces it, or nil when next describes the same type (same schemas,
// push still offered): those streams go on.
func changed(old, next *Type) *mcp.JSONRPCError {
	unsupported := func(feature string) *mcp.JSONRPCError {
		return newError(CodeUnsupported, fmt.Sprintf("Unsupported: event type %q changed its %s", next.Name(), feature),
			map[string]string{"feature": feature, "reason": "schema_changed"})
	}
	switch {
	case !next.offers(DeliveryPush):
		return errDeliveryUnsupported(next.Name(), DeliveryPush)
	case !sameJSON(old.desc.InputSchema, next.desc.InputSchema):
		return unsupported("inputSchema")
	case !sameJSON(old.desc.PayloadSchema, next.desc.PayloadSchema):
		return unsupported("payloadSchema")
	}
	return nil
}

// sameJSON reports whether a and b encode the same.
func sameJSON(a, b any) bool {
	ja, err1 := strictjson.Marshal(a)
	jb, err2 := strictjson.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// NewServer turns the extension on for s and returns the Server that
// serves it: it declares the extension in s's capabilities, both in
// capabilities.extensions (with listChanged) and as the top-level
// "events" member deployed clients read, honours the eventsListChanged
// filter of subscriptions/listen, and serves events/list, events/poll,
// events/stream, events/subscribe and events/unsubscribe in every
// protocol revision. Call it once per mcp.Server.
func NewServer(s *mcp.Server, opts *ServerOptions) *Server {
	es := &Server{s: s, types: make(map[string]*served), closing: make(chan struct{})}
	if opts != nil {
		es.opts = *opts
	}
	o := &es.opts
	if o.Log == nil {
		o.Log = NewMemoryLog(nil)
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	settings := Settings{ListChanged: true}
	s.AddListChangedFilter(ListenFilter, NotificationListChanged)
	s.AddCapability(LegacyCapability, settings)
	s.AddExtension(ExtensionID, settings,
		mcp.NewServerMethod(MethodList, es.list, nil),
		mcp.NewServerMethod(MethodPoll, es.poll, &mcp.MethodOptions{Validate: validateName}),
		mcp.NewServerMethod(MethodStream, es.stream, &mcp.MethodOptions{Validate: validateName, LongLived: true}),
		mcp.NewServerMethod(MethodSubscribe, es.subscribe, nil),
		mcp.NewServerMethod(MethodUnsubscribe, es.unsubscribe, nil),
	)
	return es
}

// validateName checks that a poll or stream request names a type.
func validateName(params any) error {
	var name string
	switch p := params.(type) {
	case *PollParams:
		name = p.Name
	case *StreamParams:
		name = p.Name
	}
	if name == "" {
		return errInvalidParams("missing name: the event type to subscribe to")
	}
	return nil
}

// AddTypes adds event types, replacing types of the same names, and tells
// listening clients the list changed. The push streams of a replaced type
// go on if the new one has the same schemas and offers push; otherwise
// they end with NotificationTerminated (Unsupported, with data.reason
// "schema_changed" or the delivery mode no longer offered). It panics
// for a type that offers DeliveryWebhook on a Server without
// ServerOptions.Webhooks.
func (es *Server) AddTypes(types ...*Type) {
	es.mu.Lock()
	for _, t := range types {
		if t.offers(DeliveryWebhook) && es.opts.Webhooks == nil {
			es.mu.Unlock()
			panic(fmt.Sprintf("events: AddTypes: %q offers webhook delivery, and ServerOptions.Webhooks is not set", t.Name()))
		}
		next := &served{Type: t, ending: &ending{removed: make(chan struct{})}}
		if old := es.types[t.Name()]; old != nil {
			if err := changed(old.Type, t); err != nil {
				old.end(err)
			} else {
				next.ending = old.ending // its streams go on
			}
		}
		es.types[t.Name()] = next
	}
	es.mu.Unlock()
	es.s.NotifyListChanged(NotificationListChanged)
}

// RemoveTypes removes the named event types: their push streams end with
// NotificationTerminated (NotFound), and listening clients are told the
// list changed. Unknown names are ignored.
func (es *Server) RemoveTypes(names ...string) {
	es.mu.Lock()
	changed := false
	for _, name := range names {
		if old := es.types[name]; old != nil {
			old.end(errEventNotFound(name))
			delete(es.types, name)
			changed = true
		}
	}
	es.mu.Unlock()
	if changed {
		es.s.NotifyListChanged(NotificationListChanged)
	}
}

// lookup returns the type named name, or nil.
func (es *Server) lookup(name string) *served {
	es.mu.RLock()
	defer es.mu.RUnlock()
	return es.types[name]
}

// Close ends every push stream the server serves, each with its request's
// result (StreamResult), as a server that shuts down does; clients
// reconnect with their cursors, to another instance or after a restart.
// Later streams end at once. Call it before the HTTP handler's Shutdown,
// which would otherwise wait for the streams and then cut them.
func (es *Server) Close() {
	es.closeOne.Do(func() { close(es.closing) })
}

// EmitOptions are options of Emit; nil means defaults.
type EmitOptions struct {
	// EventID identifies the occurrence (default a random id). Use the
	// upstream's stable id when there is one (a Stripe evt_ id, a message
	// id), so clients deduplicate across paths.
	EventID string
	// Time is when the event occurred (default now).
	Time time.Time
}

// Emit records an occurrence of the event type name with payload data,
// which must encode as a JSON object that matches the type's payload
// schema. Subscribers receive it on their next poll or at once on their
// push streams. It may be called from any goroutine.
func (es *Server) Emit(ctx context.Context, name string, data any, opts *EmitOptions) (*Occurrence, error) {
	t := es.lookup(name)
	if t == nil {
		return nil, fmt.Errorf("events: Emit: unknown event type %q", name)
	}
	raw, ok := data.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = strictjson.Marshal(data); err != nil {
			return nil, fmt.Errorf("events: Emit %q: encoding the payload: %w", name, err)
		}
	}
	if err := t.payload.ValidateJSON(raw); err != nil {
		return nil, fmt.Errorf("events: Emit %q: the payload does not match the type's payload schema: %w", name, err)
	}
	r := Record{Name: name, Data: raw}
	if opts != nil {
		r.EventID, r.Time = opts.EventID, opts.Time
	}
	if r.EventID == "" {
		r.EventID = newEventID()
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	cursor, err := es.opts.Log.Append(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("events: Emit %q: %w", name, err)
	}
	r.Cursor = cursor
	return occurrence(&r), nil
}

// newEventID returns a random event id.
func newEventID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "evt_" + hex.EncodeToString(b[:])
}

// occurrence returns the wire form of a record, with its cursor.
func occurrence(r *Record) *Occurrence {
	c := r.Cursor
	return &Occurrence{EventID: r.EventID, Name: r.Name, Timestamp: r.Time.UTC().Format(time.RFC3339Nano), Data: r.Data, Cursor: &c}
}

// list serves events/list: the types in name order, a page at a time; the
// cursor is the last name of the previous page.
func (es *Server) list(ctx context.Context, ss *mcp.ServerSession, p *ListParams) (*ListResult, error) {
	es.mu.RLock()
	names := make([]string, 0, len(es.types))
	for name := range es.types {
		if name > p.Cursor {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	res := &ListResult{Events: []*EventType{}}
	for i, name := range names {
		if i == es.opts.PageSize {
			res.NextCursor = names[i-1]
			break
		}
		res.Events = append(res.Events, es.types[name].Describe())
	}
	es.mu.RUnlock()
	return res, nil
}

// subscribe serves events/subscribe without webhook delivery, or hands it
// to ServerOptions.Webhooks with its arguments checked ({} when absent)
// and Authorize asked.
func (es *Server) subscribe(ctx context.Context, ss *mcp.ServerSession, p *SubscribeParams) (*json.RawMessage, error) {
	t, args, err := es.admit(ctx, ss, p.Name, DeliveryWebhook, p.Arguments)
	if err != nil {
		return nil, err
	}
	if es.opts.Webhooks == nil { // unreachable: AddTypes refuses such a type
		return nil, errDeliveryUnsupported(p.Name, DeliveryWebhook)
	}
	p.Arguments = args
	return rawResult(es.opts.Webhooks.Subscribe(ctx, ss, t.Describe(), p))
}

// rawResult encodes the result of a Webhooks method.
func rawResult(res any, err error) (*json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	b, err := strictjson.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("events: encoding a webhook result: %w", err)
	}
	raw := json.RawMessage(b)
	return &raw, nil
}

// unsubscribe serves events/unsubscribe: without webhook delivery the
// server holds no subscription to remove.
func (es *Server) unsubscribe(ctx context.Context, ss *mcp.ServerSession, p *UnsubscribeParams) (*json.RawMessage, error) {
	if es.opts.Webhooks == nil {
		return nil, newError(CodeNotFound, "NotFound: no such webhook subscription", map[string]string{"kind": "subscription"})
	}
	return rawResult(es.opts.Webhooks.Unsubscribe(ctx, ss, p))
}

// admit checks a poll or stream request: the type exists and offers mode,
// the arguments match its input schema, and Authorize allows it. It
// returns the type and the arguments ({} when absent).
func (es *Server) admit(ctx context.Context, ss *mcp.ServerSession, name, mode string, args json.RawMessage) (*served, json.RawMessage, error) {
	t := es.lookup(name)
	if t == nil {
		return nil, nil, errEventNotFound(name)
	}
	if !t.offers(mode) {
		return nil, nil, errDeliveryUnsupported(name, mode)
	}
	args, err := t.checkArguments(args)
	if err != nil {
		return nil, nil, err
	}
	if es.opts.Authorize != nil {
		if err := es.opts.Authorize(ctx, ss, t.Describe(), args); err != nil {
			if KindOf(err) != "" {
				return nil, nil, err
			}
			return nil, nil, newError(CodeForbidden, "Forbidden: "+err.Error(), map[string]string{"reason": err.Error()})
		}
	}
	return t, args, nil
}

// firstRead returns the first read of a poll or a push stream of name,
// from the cursor and maxAgeMs of its params, of at most max records: a
// nil cursor (null or absent) reads from now, nothing and the head, and
// has no replay floor; otherwise the read is after the cursor, with the
// floor maxAgeMs sets. A negative maxAgeMs is invalid params.
func firstRead(name string, cursor *string, maxAgeMs *int64, max int) (ReadRequest, error) {
	req := ReadRequest{Name: name, Max: max}
	if cursor == nil {
		return req, nil
	}
	req.After = *cursor
	if maxAgeMs != nil {
		if *maxAgeMs < 0 {
			return ReadRequest{}, errInvalidParams("maxAgeMs must not be negative")
		}
		req.Since = time.Now().Add(-time.Duration(*maxAgeMs) * time.Millisecond)
	}
	return req, nil
}
