package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// A listener is one open subscriptions/listen stream (2026-07-28).
type listener struct {
	filter SubscriptionFilter
	id     any // the JSON-RPC id of the listen request: the subscription id
	// changeMark is the server's list-change count when the stream opened.
	changeMark uint64
	notify     func(ctx context.Context, method string, params any) error

	mu sync.Mutex
	// early holds the notifications broadcast before serve starts.
	early []queuedNotification
	// queue, made by serve, holds the notifications broadcast to the
	// stream, which the goroutine serving the stream writes: broadcasting
	// never waits for a client, and many streams are written at once.
	queue chan queuedNotification
	// direct, set by serve instead of queue on a stream whose writes
	// never block (a hijackedConn), writes a
	// notification on the broadcaster's goroutine.
	direct func(method string, params any) error
	// writeDirect is what direct becomes when serve starts, and
	// watchConn the hijacked connection serve then watches; both set
	// (under mu) and read on the goroutine serving the stream.
	writeDirect func(method string, params any) error
	watchConn   *hijackedConn
	// full, made by serve with queue, is closed when a notification did
	// not fit in queue: the client stopped reading, and its stream ends.
	// fullEarly records that before serve made it (guarded by mu).
	full      chan struct{}
	fullOnce  sync.Once
	fullEarly bool
	// waiting: serve waits on watchConn (guarded by mu).
	waiting bool
	// stop cancels the write in progress when the queue fills; set by
	// serve.
	stop atomic.Pointer[context.CancelFunc]
	// listChanged is the encoding of the stream's list-change params,
	// made by serve on first use: every list change sends the same bytes.
	listChanged json.RawMessage
	// idJSON is the encoded subscription id (broadcastEvent); guarded
	// by mu.
	idJSON []byte
}

// A listChange is queued for every listener a list change goes to: each
// sends it with its own subscription id (listener.listChangeParams).
type listChange struct{}

// listChangeParams returns the params of a list-changed notification for
// l. Without sending middleware, which expects typed params, they are
// the stream's encoding, made once: a broadcast to many streams then
// encodes nothing per stream.
func (l *listener) listChangeParams(s *Server) any {
	p := &ToolListChangedParams{Meta: Meta{SubscriptionID: l.id}}
	if s.sendingHandler() != nil {
		return p
	}
	if l.listChanged == nil {
		b, err := strictjson.Marshal(p)
		if err != nil {
			return p
		}
		l.listChanged = b
	}
	return l.listChanged
}

// listenerQueue is how many notifications may wait for one listen stream
// before the stream is ended as too slow.
const listenerQueue = 32

// A queuedNotification is a notification waiting in a listener's queue.
type queuedNotification struct {
	method string
	params any
}

// newListener returns a listener; serve makes its queue.
func newListener(filter SubscriptionFilter, id any, changeMark uint64, notify func(context.Context, string, any) error) *listener {
	return &listener{filter: filter, id: id, changeMark: changeMark, notify: notify}
}

// enqueue hands a notification to the stream's goroutine. When the queue
// is full it waits up to listenerFullWait for room, so that a burst of
// notifications is paced by a client that reads them; then it reports
// false and marks the stream to be ended: a client that stopped reading
// delays a broadcast once, by that wait, and never again.
func (l *listener) enqueue(method string, params any) bool {
	n := queuedNotification{method, params}
	l.mu.Lock()
	if l.direct != nil {
		err := l.direct(method, params)
		l.mu.Unlock()
		return err == nil
	}
	queue := l.queue
	if queue == nil { // serve has not started
		if len(l.early) < listenerQueue {
			l.early = append(l.early, n)
			l.mu.Unlock()
			return true
		}
		l.mu.Unlock()
		l.markFull()
		return false
	}
	l.mu.Unlock()
	select {
	case queue <- n:
		return true
	case <-l.full:
		return false
	default:
	}
	t := time.NewTimer(listenerFullWait)
	defer t.Stop()
	select {
	case queue <- n:
		return true
	case <-l.full:
		return false
	case <-t.C:
	}
	l.markFull()
	return false
}

// markFull ends the stream of a client that does not keep up.
func (l *listener) markFull() {
	l.mu.Lock()
	full := l.full
	if full == nil {
		l.fullEarly = true // serve ends the stream as it starts
	}
	l.mu.Unlock()
	if full == nil {
		return
	}
	l.fullOnce.Do(func() {
		close(full)
		if stop := l.stop.Load(); stop != nil {
			(*stop)()
		}
	})
}

// listenerFullWait is how long a broadcast waits for room in the queue of
// a listen stream before ending the stream as too slow.
const listenerFullWait = 100 * time.Millisecond

// ownWritesKey marks the context of a goroutine that is the only writer
// of the stream it notifies on (a listener's): the transport may write on
// it directly instead of queueing for a goroutine of its own.
type ownWritesKey struct{}

// ownsWrites reports whether ctx is that of a stream's only writer.
func ownsWrites(ctx context.Context) bool {
	v, _ := ctx.Value(ownWritesKey{}).(bool)
	return v
}

// errListenerTooSlow ends a listen stream whose client does not read its
// notifications.
var errListenerTooSlow = errors.New("mcp: subscription ended: the client did not read its notifications")

// listeners holds the open subscriptions/listen streams of a server.
type listeners struct {
	mu  sync.Mutex
	set map[*listener]struct{}
}

func (ls *listeners) add(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = make(map[*listener]struct{})
	}
	ls.set[l] = struct{}{}
}

func (ls *listeners) remove(l *listener) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	delete(ls.set, l)
}

// matching returns the listeners whose filter accepts the notification.
func (ls *listeners) matching(accept func(*SubscriptionFilter) bool) []*listener {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	var out []*listener
	for l := range ls.set {
		if accept(&l.filter) {
			out = append(out, l)
		}
	}
	return out
}

// send delivers a notification on l's stream, tagged with its
// subscription id. params must be a pointer to a params struct.
func (l *listener) send(ctx context.Context, method string, params any) error {
	if m := metaOf(params); m != nil {
		m.SubscriptionID = l.id
	}
	return l.notify(ctx, method, params)
}

// subscriptionsListen serves subscriptions/listen: it acknowledges the
// filter it honours, then delivers matching notifications until the client
// cancels the request or the connection ends.
func (ss *ServerSession) subscriptionsListen(ctx context.Context, p *SubscriptionsListenParams) (*SubscriptionsListenResult, error) {
	if ss.request == nil || ss.request.notify == nil && ss.root().conn == nil {
		return nil, newError(CodeInvalidRequest, "subscriptions/listen needs a stream to deliver notifications on")
	}
	s := ss.server
	// The listener's goroutine writes the stream: its notifications need
	// no other queue on the way.
	ctx = context.WithValue(ctx, ownWritesKey{}, true)
	filter := s.honoured(p.Notifications)
	taskIDs, err := ss.honouredTaskIDs(ctx, p.Notifications.TaskIDs) // tasks extension (task_server.go)
	if err != nil {
		return nil, err
	}
	filter.TaskIDs = taskIDs
	l := newListener(filter, ss.request.rc.id.Raw(), 0, ss.notify)
	// The listener is registered before the acknowledgement is written:
	// a client that changes a list as soon as it reads the acknowledgement
	// is told of that change (it waits in the queue until serve runs).
	s.addListener(l)
	detached := false
	defer func() {
		if !detached { // else the stream's end removes it (detachedListen)
			s.listeners.remove(l)
		}
	}()
	ack := &SubscriptionsAcknowledgedParams{Notifications: l.filter}
	if err := l.send(ctx, NotificationSubscriptionsAcknowledged, ack); err != nil {
		return nil, err
	}
	s.sendTaskStates(ctx, l) // tasks extension (task_server.go)
	// The stream also ends gracefully when its connection starts closing
	// (a stdio client closed its input), so the result is written before
	// the connection ends.
	var connClosing <-chan struct{}
	if c, ok := ss.root().conn.(interface{ Closing() <-chan struct{} }); ok {
		connClosing = c.Closing()
	}
	if st := streamFromContext(ctx); st != nil {
		// A hijacked connection (hijacked_serve.go): without middleware
		// to see them, the broadcasters write the notifications and this
		// goroutine watches the client; else another goroutine does.
		if hc := st.claimWatch(); hc != nil && s.sendingHandler() == nil {
			l.mu.Lock() // interruptWaiting reads watchConn
			l.writeDirect = func(method string, params any) error { return st.notifyDirect(l, method, params) }
			l.watchConn = hc
			l.mu.Unlock()
			st.releaseBuffers()
		} else if hc != nil {
			go hc.watch()
		}
	}
	if err := l.serve(ctx, s, connClosing); err != nil {
		if _, ok := err.(*detachedListen); ok {
			detached = true
		}
		return nil, err
	}
	return l.result(), nil
}

// result is the result of l's request when its stream ends gracefully.
func (l *listener) result() *SubscriptionsListenResult {
	res := &SubscriptionsListenResult{}
	res.Meta.SubscriptionID = l.id
	return res
}

// serve writes the notifications queued for l until the request ends
// (ctx), the server shuts down or the connection starts closing; the last
// two end the stream gracefully (nil error).
func (l *listener) serve(ctx context.Context, s *Server, connClosing <-chan struct{}) error {
	l.mu.Lock()
	if l.writeDirect != nil {
		// Broadcasts are written by their senders, after these.
		for _, n := range l.early {
			_ = l.writeDirect(n.method, n.params) // a failed write ends the stream (ctx)
		}
		l.early = nil
		l.direct = l.writeDirect
		l.mu.Unlock()
		if l.watchConn != nil {
			st := streamFromContext(ctx)
			interruptible := st != nil && st.interruptsWatch(ctx)
			if st != nil && st.listenDone != nil && !s.hasReceivingMiddleware() {
				// The request's own goroutine (runListen) can hand its
				// wait off, and no middleware expects the request's
				// result from this call (detachedListen).
				return &detachedListen{ctx: ctx, s: s, l: l, hc: l.watchConn, interruptible: interruptible}
			}
			return l.waitDirect(ctx, s, l.watchConn, interruptible)
		}
		select {
		case <-ctx.Done():
			return listenEnd(ctx)
		case <-s.shutdown:
			return nil
		case <-connClosing:
			return nil
		}
	}
	l.queue = make(chan queuedNotification, listenerQueue)
	l.full = make(chan struct{})
	if l.fullEarly {
		l.fullOnce.Do(func() { close(l.full) })
	}
	for _, n := range l.early {
		l.queue <- n
	}
	l.early = nil
	l.mu.Unlock()
	writeCtx, stop := context.WithCancel(ctx)
	defer stop()
	l.stop.Store(&stop)
	for {
		select {
		case n := <-l.queue:
			if _, ok := n.params.(listChange); ok {
				n.params = l.listChangeParams(s)
			} else if b, ok := n.params.(*broadcastEvent); ok {
				n.params = b.fresh()
			}
			if err := l.send(writeCtx, n.method, n.params); err != nil {
				if writeCtx.Err() != nil && ctx.Err() == nil {
					s.logger().Warn("mcp: listen stream ended: the client stopped reading", "queued", listenerQueue)
					return errListenerTooSlow
				}
				if !errors.Is(err, ErrConnectionClosed) && ctx.Err() == nil {
					s.logger().Warn("mcp: listen stream ended: write failed", "method", n.method, "error", err)
				}
				return err
			}
		case <-l.full:
			s.logger().Warn("mcp: listen stream ended: the client stopped reading", "queued", listenerQueue)
			return errListenerTooSlow
		case <-ctx.Done():
			return listenEnd(ctx)
		case <-s.shutdown:
			return nil
		case <-connClosing:
			return nil
		}
	}
}

// listenEnd is the error a listen request whose context is done ends
// with: nil (a graceful end, answered with the request's result) when the
// HTTP handler ended the stream, else the context's error.
func listenEnd(ctx context.Context) error {
	if endedByHandler(ctx) {
		return nil
	}
	return ctx.Err()
}

// honoured returns the part of a requested filter the server will honour:
// list changes for the kinds of features it has, and resource updates when
// it serves resources.
func (s *Server) honoured(f SubscriptionFilter) SubscriptionFilter {
	caps := s.capabilities()
	out := SubscriptionFilter{
		ToolsListChanged:     f.ToolsListChanged && caps.Tools != nil,
		PromptsListChanged:   f.PromptsListChanged && caps.Prompts != nil,
		ResourcesListChanged: f.ResourcesListChanged && caps.Resources != nil,
	}
	if caps.Resources != nil {
		out.ResourceSubscriptions = slices.Clone(f.ResourceSubscriptions)
	}
	if lists := s.addedLists.m.Load(); lists != nil {
		for member, v := range f.Other {
			if v == true && (*lists)[member] != nil {
				if out.Other == nil {
					out.Other = make(map[string]any)
				}
				out.Other[member] = true
			}
		}
	}
	return out
}

// AddListChangedFilter declares a list an extension keeps, such as the
// Events extension's event types: member is the boolean member of the
// subscriptions/listen filter that asks for its changes
// ("eventsListChanged"), and method the notification that announces them
// ("notifications/events/list_changed"). From then on the server honours
// the member (it echoes it in notifications/subscriptions/acknowledged)
// and [Server.NotifyListChanged] of method reaches the streams that asked
// for it, and the initialized sessions of earlier revisions.
func (s *Server) AddListChangedFilter(member, method string) {
	if member == "" || method == "" {
		panic("mcp: AddListChangedFilter: empty member or method")
	}
	s.addedLists.set(member, method)
}

// NotifyListChanged announces a change of a list declared with
// [Server.AddListChangedFilter], as AddTools does for tools: at once,
// changes within a few milliseconds coalesced, to every
// subscriptions/listen stream whose filter asked for it and every
// initialized session of an earlier revision, on this instance and,
// through ServerOptions.EventBus (a BusListChanged event), on every other
// that declared the same list. It panics if no filter member was declared
// for method.
func (s *Server) NotifyListChanged(method string) {
	if s.addedListMember(method) == "" {
		panic("mcp: NotifyListChanged: no AddListChangedFilter for " + method)
	}
	s.listChanged(method)
}

// addedListMember returns the filter member declared for method, or "".
func (s *Server) addedListMember(method string) string {
	lists := s.addedLists.m.Load()
	if lists == nil {
		return ""
	}
	for member, m := range *lists {
		if m == method {
			return member
		}
	}
	return ""
}

// listChangedDelay is the shortest time between two list_changed
// notifications of one list: the first change is announced at once, and
// the changes that follow within listChangedDelay are announced together
// when it ends, so that a burst of AddX/RemoveX calls sends at most two
// notifications per list.
const listChangedDelay = 10 * time.Millisecond

// listChanged schedules a list_changed notification for every client that
// can receive it: initialized legacy sessions and 2026-07-28 listeners that
// asked for it. Changes within listChangedDelay are coalesced.
func (s *Server) listChanged(method string) {
	s.markListChanged(method) // event_bus.go
	s.scheduleListChanged(method)
}

// scheduleListChanged schedules the notification of a list change made
// here or, through the event bus, on another instance: at once if the
// list's last notification is older than listChangedDelay, else when
// that delay has passed. A notification already scheduled covers the
// change.
func (s *Server) scheduleListChanged(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changeSeq++
	if s.pendingChanges == nil {
		s.pendingChanges = make(map[string]uint64)
		s.lastFlush = make(map[string]time.Time)
	}
	_, scheduled := s.pendingChanges[method]
	s.pendingChanges[method] = s.changeSeq
	if scheduled {
		return
	}
	// The flush runs on its own goroutine even when it is due now: the
	// caller (AddTools, say) does not wait for thousands of writes.
	delay := s.changeDelay
	if delay == 0 {
		delay = listChangedDelay
	}
	wait := delay - time.Since(s.lastFlush[method])
	if wait <= 0 {
		go s.flushListChanged(method)
		return
	}
	time.AfterFunc(wait, func() { s.flushListChanged(method) })
}

// addListener registers l, marked with the number of list changes so far;
// both happen under the server's lock, so that a flush either sees l or
// carries a change l's mark already covers.
func (s *Server) addListener(l *listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l.changeMark = s.changeSeq
	s.listeners.add(l)
}

// changeMark returns the number of list changes so far: a session or
// listener that starts now is told only of later changes.
func (s *Server) changeMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changeSeq
}

func (s *Server) flushListChanged(method string) {
	s.mu.Lock()
	seq := s.pendingChanges[method]
	delete(s.pendingChanges, method)
	s.lastFlush[method] = time.Now()
	s.mu.Unlock()
	s.publishListChanged(method) // event_bus.go
	ctx := context.Background()
	var sessions []*ServerSession
	for ss := range s.Sessions() {
		if ss.era.Load() == eraLegacy && ss.initialized.Load() && ss.changeMark < seq {
			sessions = append(sessions, ss)
		}
	}
	// The params are the same for every session: without sending
	// middleware, which expects typed params, they are sent encoded.
	var params any = &struct{}{}
	if s.sendingHandler() == nil {
		params = json.RawMessage(`{}`)
	}
	eachConcurrently(sessions, func(ss *ServerSession) {
		if err := ss.notify(ctx, method, params); err != nil && !errors.Is(err, ErrConnectionClosed) {
			s.logger().Warn("mcp: dropped notification", "method", method, "error", err)
		}
	})
	accept := map[string]func(*SubscriptionFilter) bool{
		NotificationToolListChanged:     func(f *SubscriptionFilter) bool { return f.ToolsListChanged },
		NotificationPromptListChanged:   func(f *SubscriptionFilter) bool { return f.PromptsListChanged },
		NotificationResourceListChanged: func(f *SubscriptionFilter) bool { return f.ResourcesListChanged },
	}[method]
	if member := s.addedListMember(method); accept == nil && member != "" {
		accept = func(f *SubscriptionFilter) bool { return f.Other[member] == true }
	}
	if accept == nil {
		return
	}
	// A listener on a hijacked connection is written at once, on the
	// worker's goroutine: several workers write to several sockets at once.
	eachConcurrently(s.listeners.matching(accept), func(l *listener) {
		if l.changeMark < seq {
			l.enqueue(method, listChange{})
		}
	})
}

// eachConcurrently calls f for every item, from up to 4×GOMAXPROCS
// goroutines, and returns when all calls have: a broadcast to many legacy
// streams writes to several at once, and a slow one holds up one worker
// (until its write deadline), not the rest.
func eachConcurrently[T any](items []T, f func(T)) {
	workers := min(len(items), 4*runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for _, it := range items {
			f(it)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(items)); i = next.Add(1) - 1 {
				f(items[i])
			}
		})
	}
	wg.Wait()
}

// resourceUpdated queues a resource update for the listen streams whose
// filter names its URI. It reports the streams that were too slow to take
// it (they end).
func (ls *listeners) resourceUpdated(ctx context.Context, p *ResourceUpdatedParams) error {
	var dropped atomic.Int64
	// Encoded once for the streams written directly (broadcastEvent).
	b := &broadcastEvent{method: NotificationResourceUpdated, fresh: func() any { c := *p; return &c }}
	eachConcurrently(ls.matching(func(f *SubscriptionFilter) bool { return slices.Contains(f.ResourceSubscriptions, p.URI) }), func(l *listener) {
		if !l.enqueue(NotificationResourceUpdated, b) {
			dropped.Add(1)
		}
	})
	if dropped := dropped.Load(); dropped > 0 {
		return fmt.Errorf("%w: %d listen streams too slow for %s", errListenerTooSlow, dropped, NotificationResourceUpdated)
	}
	return nil
}

// Listen opens a subscriptions/listen stream (2026-07-28): the server
// delivers the notifications params.Notifications asks for to the
// client's handlers (ToolListChangedHandler, ResourceUpdatedHandler, ...;
// their params carry the subscription id in Meta.SubscriptionID) until ctx
// is cancelled, which ends the stream. Listen blocks until then and returns
// ctx.Err(), or the server's result if it ends the stream itself.
func (cs *ClientSession) Listen(ctx context.Context, params *SubscriptionsListenParams) (*SubscriptionsListenResult, error) {
	if !cs.modern {
		return nil, fmt.Errorf("%w: subscriptions/listen needs protocol %s; use Subscribe and the list-changed handlers", ErrNotSupported, Version20260728)
	}
	return clientCall[SubscriptionsListenParams, SubscriptionsListenResult](ctx, cs, MethodSubscriptionsListen, params)
}

// A 2026-07-28 subscriptions/listen stream on a hijacked connection, with
// no middleware to see its messages, is written by its broadcasters; what
// its request does for the rest of the stream's life is wait for the
// client to leave (or the server to close). The goroutine serving the
// request went through decoding and dispatch, whose peak grows its stack
// to 8 KiB, and the runtime keeps that stack while the goroutine waits
// deep in the dispatch. So the request hands the wait to a goroutine of
// its own, which starts with a small stack, and returns: an open listen
// stream then holds half the stack it did.
//
// The hand-off travels as an error, a *detachedListen, from the listener
// up through the dispatch (which passes errors through unchanged when no
// middleware is installed) to the handler's runListen, which starts the
// waiting goroutine. That goroutine ends the request as the dispatch
// would have: the listener unregistered, the result completed and
// identifying the server.

// A detachedListen is what a listen request returns when its stream's
// wait is handed off: what the wait needs.
type detachedListen struct {
	ctx           context.Context
	s             *Server
	l             *listener
	hc            *hijackedConn
	interruptible bool
}

var _ error = (*detachedListen)(nil)

func (*detachedListen) Error() string {
	return "mcp: a subscriptions/listen stream waits apart from its request"
}

// finish waits for the stream's end, unregisters the listener, and
// returns what the dispatch would have made of the request's result
// (Server.dispatch).
func (d *detachedListen) finish() (any, error) {
	err := d.l.waitDirect(d.ctx, d.s, d.hc, d.interruptible)
	d.s.listeners.remove(d.l)
	if err != nil {
		return nil, err
	}
	res := d.l.result()
	res.ResultType = "complete" // as ServerSession.serve completes it
	return d.s.withServerInfo(res, nil)
}
