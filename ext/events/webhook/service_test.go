package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// tickPayload is the payload of the test's types.
type tickPayload struct {
	N int `json:"n"`
}

// wired is an events server with webhook delivery, a client connected to
// it, and a Receiver behind a TLS server.
type wired struct {
	es              *events.Server
	cs              *mcp.ClientSession
	r               *Receiver
	srv             *httptest.Server
	msgs            chan *Message
	settled         chan string // message ids, once recorded
	principal       atomic.Pointer[string]
	hold            atomic.Pointer[chan struct{}] // if set, the next delivery waits for it
	svc             *Service
	sender          *Sender
	challenges      atomic.Int64           // verification envelopes the endpoint received
	failEvents      atomic.Bool            // the endpoint answers 503 to every event
	document        atomic.Pointer[string] // the receiver document the endpoint serves, if any
	documentFetches atomic.Int64
}

// newWired starts it all; the delivery loop stops at the test's end, and
// the test fails if it does not.
func newWired(t *testing.T) *wired { return newWiredWith(t, GrantPolicy{}, nil) }

// newWiredWith is newWired with a grant policy and an event log (nil for
// the default).
func newWiredWith(t *testing.T, grants GrantPolicy, log events.Log) *wired {
	t.Helper()
	return newWiredTuned(t, func(o *ServiceOptions, _ *wired) { o.Grants = grants }, log)
}

// newWiredTuned is newWired with the Service's options changed by tune
// and an event log (nil for the default).
func newWiredTuned(t *testing.T, tune func(*ServiceOptions, *wired), log events.Log) *wired {
	t.Helper()
	w := &wired{msgs: make(chan *Message, 64), settled: make(chan string, 64)}
	who := "alice"
	w.principal.Store(&who)
	w.r = NewReceiver(func(_ context.Context, m *Message) error {
		w.msgs <- m
		if hold := w.hold.Swap(nil); hold != nil {
			<-*hold // the test holds this delivery's answer back
		}
		return nil
	}, nil)
	w.srv = httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if req.URL.Path == ReceiverDocumentPath {
			w.documentFetches.Add(1)
			if doc := w.document.Load(); doc != nil {
				_, _ = io.WriteString(rw, *doc)
				return
			}
			http.NotFound(rw, req)
			return
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, MaxBodyBytes+1))
		if err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			return
		}
		if bytes.Contains(body, []byte(`"type":"verification"`)) {
			w.challenges.Add(1)
		}
		if w.failEvents.Load() && !bytes.Contains(body, []byte(`"type":`)) {
			rw.WriteHeader(http.StatusServiceUnavailable) // events fail, envelopes pass
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		w.r.ServeHTTP(rw, req)
	}))
	t.Cleanup(w.srv.Close)
	sender := testSender(t, w.srv, SenderOptions{InsecureAllowPrivateAndHTTP: true, MaxAttempts: 2})
	opts := &ServiceOptions{
		Sender:    sender,
		Principal: func(context.Context, *mcp.ServerSession) string { return *w.principal.Load() },
		OnError:   func(err error) { t.Log(err) },
		Settled:   func(_, id string, _ error) { w.settled <- id },
	}
	if tune != nil {
		tune(opts, w)
	}
	svc := NewService(opts)
	w.svc, w.sender = svc, sender
	s := mcp.NewServer("webhook-test", "v1.0.0", nil)
	w.es = events.NewServer(s, &events.ServerOptions{Webhooks: svc, Log: log})
	w.es.AddTypes(
		events.NewType[struct{}, tickPayload]("test.tick", "A tick", &events.TypeOptions[struct{}, tickPayload]{Delivery: []string{events.DeliveryPoll, events.DeliveryWebhook}}),
		events.NewType[struct{}, tickPayload]("poll.only", "A tick to poll", &events.TypeOptions[struct{}, tickPayload]{Delivery: []string{events.DeliveryPoll}}),
	)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- svc.Run(ctx, w.es) }()
	<-svc.ran // a subscribe before Run has the events.Server fails
	t.Cleanup(func() {
		cancel()
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient("webhook-client", "v1.0.0", nil)
	events.EnableClient(c, nil)
	cs, err := c.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	w.cs = cs
	return w
}

// params returns subscribe params for test.tick to the receiver.
func (w *wired) params(secret Secret) *events.SubscribeParams {
	return &events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL + "/hook", Secret: secret.Reveal()}}
}

// next returns the next message the receiver handed on.
func (w *wired) next(t *testing.T) *Message {
	t.Helper()
	select {
	case m := <-w.msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10 s")
		return nil
	}
}

// waitSettled waits for the server to settle the given messages, in order.
func (w *wired) waitSettled(t *testing.T, ids ...string) {
	t.Helper()
	for _, want := range ids {
		select {
		case id := <-w.settled:
			if id != want {
				t.Fatalf("settled %s, want %s", id, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s not settled within 10 s", want)
		}
	}
}

// emit emits test.tick with n.
func (w *wired) emit(t *testing.T, n int) *events.Occurrence {
	t.Helper()
	o, err := w.es.Emit(context.Background(), "test.tick", tickPayload{N: n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestServiceSubscribeErrors(t *testing.T) {
	w := newWired(t)
	ctx := context.Background()
	good := GenerateSecret()
	short := "whsec_" + strings.Repeat("A", 20) // 15 bytes
	refuser := httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) { rw.WriteHeader(http.StatusNoContent) }))
	defer refuser.Close()
	tests := []struct {
		name      string
		principal string
		params    events.SubscribeParams
		kind      events.Kind
		data      string
	}{
		{"no principal is Forbidden", "", *w.params(good), events.KindForbidden, ""},
		{"a type without webhook is Unsupported", "alice", events.SubscribeParams{Name: "poll.only", Delivery: w.params(good).Delivery}, events.KindUnsupported, ""},
		{"an unknown type is NotFound", "alice", events.SubscribeParams{Name: "nope", Delivery: w.params(good).Delivery}, events.KindNotFound, ""},
		{"no delivery is InvalidParams", "alice", events.SubscribeParams{Name: "test.tick"}, events.KindInvalidParams, ""},
		{"no secret is InvalidParams", "alice", events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL}}, events.KindInvalidParams, ""},
		{"a secret without whsec_ is InvalidParams", "alice", events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL, Secret: strings.TrimPrefix(good.Reveal(), "whsec_")}}, events.KindInvalidParams, ""},
		{"a secret of 15 bytes is InvalidParams", "alice", events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL, Secret: short}}, events.KindInvalidParams, ""},
		{"a ftp URL is InvalidParams", "alice", events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: "ftp://example.com/", Secret: good.Reveal()}}, events.KindInvalidParams, ""},
		{"bad arguments are InvalidParams", "alice", events.SubscribeParams{Name: "test.tick", Arguments: json.RawMessage(`{"x":1}`), Delivery: w.params(good).Delivery}, events.KindInvalidParams, ""},
		{"an endpoint that does not echo is CallbackEndpointError", "alice", events.SubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: refuser.URL, Secret: good.Reveal()}}, events.KindCallbackEndpointError, `{"reason":"challenge_failed"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.principal.Store(&tt.principal)
			var res json.RawMessage
			err := w.cs.Call(ctx, events.MethodSubscribe, &tt.params, &res)
			if got := events.KindOf(err); got != tt.kind {
				t.Fatalf("error %v: kind %q, want %q", err, got, tt.kind)
			}
			var rpc *mcp.JSONRPCError
			if tt.data != "" && (!errors.As(err, &rpc) || string(rpc.Data) != tt.data) {
				t.Errorf("error data %s, want %s", rpc.Data, tt.data)
			}
		})
	}
	nobody := ""
	w.principal.Store(&nobody)
	err := w.cs.Call(ctx, events.MethodUnsubscribe, &events.UnsubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL}}, nil)
	if events.KindOf(err) != events.KindForbidden {
		t.Errorf("unsubscribe without a principal: %v, want Forbidden", err)
	}
}

func TestServiceDeliveryRefreshRotationUnsubscribe(t *testing.T) {
	w := newWired(t)
	ctx := context.Background()
	first := GenerateSecret()
	res, err := Subscribe(ctx, w.cs, w.r, w.params(first))
	if err != nil {
		t.Fatal(err)
	}
	if res.ID == "" || res.Cursor == nil || res.Truncated || res.DeliveryStatus != nil || res.RefreshBefore.NoExpiry() {
		t.Fatalf("subscribe result %+v: want an id, a cursor, a grant, no truncation, no deliveryStatus", res)
	}
	o := w.emit(t, 1)
	m := w.next(t)
	if m.Type != "" || m.EventID != o.EventID || m.Name != "test.tick" || m.SubscriptionID != res.ID || m.Cursor == nil || *m.Cursor != *o.Cursor {
		t.Fatalf("delivered %+v, want event %s of test.tick for %s with cursor %s", m, o.EventID, res.ID, *o.Cursor)
	}
	var got events.Occurrence
	if err := json.Unmarshal(m.Body, &got); err != nil || string(got.Data) != `{"n":1}` {
		t.Fatalf("body %s: %v", m.Body, err)
	}

	w.waitSettled(t, o.EventID)

	// A refresh with a new secret: the same id, deliveryStatus reports the
	// delivery, and the old secret still signs (dual signing).
	second := GenerateSecret()
	res2, err := Subscribe(ctx, w.cs, w.r, w.params(second))
	if err != nil {
		t.Fatal(err)
	}
	if res2.ID != res.ID || res2.DeliveryStatus == nil || !res2.DeliveryStatus.Active() || res2.DeliveryStatus.LastError != "" || res2.DeliveryStatus.LastDeliveryAt.IsZero() {
		t.Fatalf("refresh result %+v (status %+v): want the same id and an active status after a delivery", res2, res2.DeliveryStatus)
	}
	if res2.Cursor == nil || *res2.Cursor != *o.Cursor {
		t.Errorf("refresh cursor %v, want the watermark %s", res2.Cursor, *o.Cursor)
	}
	w.r.Add(res.ID, first) // a receiver that has not switched yet
	o2 := w.emit(t, 2)
	if m := w.next(t); m.EventID != o2.EventID {
		t.Fatalf("after rotation, a receiver with the old secret got %+v, want %s", m, o2.EventID)
	}
	w.r.Add(res.ID, second) // and one that has
	o3 := w.emit(t, 3)
	if m := w.next(t); m.EventID != o3.EventID {
		t.Fatalf("after rotation, a receiver with the new secret got %+v, want %s", m, o3.EventID)
	}

	w.waitSettled(t, o2.EventID, o3.EventID)

	// A refresh with an old cursor replays what followed it.
	replay := w.params(second)
	replay.Cursor = o.Cursor
	if _, err := Subscribe(ctx, w.cs, w.r, replay); err != nil {
		t.Fatal(err)
	}
	// The server sends them again; the receiver acknowledges the replays
	// without handing them on.
	w.waitSettled(t, o2.EventID, o3.EventID)

	un := &events.UnsubscribeParams{Name: "test.tick", Delivery: &events.WebhookTarget{URL: w.srv.URL + "/hook"}}
	if err := Unsubscribe(ctx, w.cs, w.r, res.ID, un); err != nil {
		t.Fatal(err)
	}
	err = Unsubscribe(ctx, w.cs, w.r, res.ID, un)
	var rpc *mcp.JSONRPCError
	if events.KindOf(err) != events.KindNotFound || !errors.As(err, &rpc) || string(rpc.Data) != `{"kind":"subscription"}` {
		t.Fatalf("second unsubscribe: %v, want NotFound with data.kind subscription", err)
	}
}

func TestServiceTerminatesWhenTheTypeGoes(t *testing.T) {
	w := newWired(t)
	res, err := Subscribe(context.Background(), w.cs, w.r, w.params(GenerateSecret()))
	if err != nil {
		t.Fatal(err)
	}
	w.es.RemoveTypes("test.tick")
	m := w.next(t)
	if m.Type != EnvelopeTerminated || m.SubscriptionID != res.ID || m.Error == nil || events.KindOf(&mcp.JSONRPCError{Code: mcp.ErrorCode(m.Error.Code)}) != events.KindNotFound {
		t.Fatalf("got %+v, want a terminated envelope with NotFound", m)
	}
}

func TestKeepSubscribedRefreshesAndStopsOnForbidden(t *testing.T) {
	w := newWiredWith(t, GrantPolicy{Default: 2 * time.Second, Min: time.Second}, nil)
	results := make(chan *SubscribeResult, 16)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		done <- KeepSubscribed(ctx, w.cs, w.r, w.params(GenerateSecret()), &KeepOptions{Subscribed: func(r *SubscribeResult) { results <- r }})
	}()
	first := <-results
	if first.DeliveryStatus != nil || first.RefreshBefore.NoExpiry() {
		t.Fatalf("first result %+v: want a new subscription with a grant", first)
	}
	second := <-results // before refreshBefore, halfway through the grant
	if second.ID != first.ID || second.DeliveryStatus == nil || !second.RefreshBefore.RefreshBefore.After(first.RefreshBefore.RefreshBefore) {
		t.Fatalf("second result %+v: want a refresh of %s with a later grant", second, first.ID)
	}
	nobody := ""
	w.principal.Store(&nobody) // access revoked: the next refresh is Forbidden
	select {
	case err := <-done:
		if events.KindOf(err) != events.KindForbidden {
			t.Fatalf("KeepSubscribed returned %v, want Forbidden", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("KeepSubscribed did not stop on Forbidden")
	}
}

func TestServiceGapAndTruncated(t *testing.T) {
	w := newWiredWith(t, GrantPolicy{}, events.NewMemoryLog(&events.MemoryLogOptions{MaxRecords: 2}))
	ctx := context.Background()
	res, err := Subscribe(ctx, w.cs, w.r, w.params(GenerateSecret()))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	w.hold.Store(&release)
	o1 := w.emit(t, 1)
	if m := w.next(t); m.EventID != o1.EventID {
		t.Fatalf("got %+v, want %s", m, o1.EventID)
	}
	// While the first delivery is unanswered, four more occurrences
	// arrive, and the log keeps only the last two.
	var last []*events.Occurrence
	for n := 2; n <= 5; n++ {
		last = append(last, w.emit(t, n))
	}
	close(release)
	gap := w.next(t)
	if gap.Type != EnvelopeGap || gap.SubscriptionID != res.ID || gap.Cursor == nil || !strings.HasPrefix(gap.ID, "msg_gap_") {
		t.Fatalf("got %+v, want a gap envelope with a cursor", gap)
	}
	for _, o := range last[2:] {
		if m := w.next(t); m.EventID != o.EventID {
			t.Fatalf("after the gap got %+v, want %s", m, o.EventID)
		}
	}

	// A subscribe from a cursor the log no longer reaches starts later,
	// truncated.
	p := w.params(GenerateSecret())
	p.Delivery.URL += "/other"
	p.Cursor = o1.Cursor
	res2, err := Subscribe(ctx, w.cs, w.r, p)
	if err != nil {
		t.Fatal(err)
	}
	if !res2.Truncated || res2.Cursor == nil || *res2.Cursor == *o1.Cursor {
		t.Fatalf("subscribe from a dropped cursor: %+v, want truncated with a fresh cursor", res2)
	}
}

func TestServiceReplayPointWinsOverAnInFlightDelivery(t *testing.T) {
	w := newWired(t)
	ctx := context.Background()
	secret := GenerateSecret()
	if _, err := Subscribe(ctx, w.cs, w.r, w.params(secret)); err != nil {
		t.Fatal(err)
	}
	o1, o2 := w.emit(t, 1), w.emit(t, 2)
	w.next(t)
	w.next(t)
	w.waitSettled(t, o1.EventID, o2.EventID)
	release := make(chan struct{})
	w.hold.Store(&release)
	o3 := w.emit(t, 3)
	w.next(t) // o3 is being delivered, unanswered
	replay := w.params(secret)
	replay.Cursor = o1.Cursor
	res, err := Subscribe(ctx, w.cs, w.r, replay)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cursor == nil || *res.Cursor != *o1.Cursor {
		t.Fatalf("refresh cursor %v, want the replay point %s", res.Cursor, *o1.Cursor)
	}
	close(release)
	// o3's settling leaves the replay point alone: o2 and o3 go again.
	w.waitSettled(t, o3.EventID, o2.EventID, o3.EventID)
}

func TestServiceRefusesUnsafeURLsByDefault(t *testing.T) {
	svc := NewService(&ServiceOptions{Principal: func(context.Context, *mcp.ServerSession) string { return "alice" }})
	typ := &events.EventType{Name: "test.tick", Delivery: []string{events.DeliveryWebhook}}
	for _, url := range []string{"http://example.com/hook", "https://127.0.0.1/hook", "https://[::1]/hook", "https://10.0.0.1/hook"} {
		t.Run(url, func(t *testing.T) {
			_, err := svc.Subscribe(context.Background(), nil, typ, &events.SubscribeParams{
				Name: "test.tick", Arguments: json.RawMessage(`{}`), Delivery: &events.WebhookTarget{URL: url, Secret: GenerateSecret().Reveal()},
			})
			if events.KindOf(err) != events.KindInvalidParams {
				t.Fatalf("subscribe to %s: %v, want InvalidParams", url, err)
			}
		})
	}
}

// refusingRegistry tells of each Claim it refuses.
type refusingRegistry struct {
	Registry
	refused chan struct{}
}

func (r *refusingRegistry) Claim(ctx context.Context, id, eventID string, ttl time.Duration) (bool, error) {
	ok, err := r.Registry.Claim(ctx, id, eventID, ttl)
	if err == nil && !ok {
		select {
		case r.refused <- struct{}{}:
		default:
		}
	}
	return ok, err
}

// TestServiceDeliversOnceAcrossInstances: a second instance running the
// delivery loop over the same Registry and log does not send what the
// first claimed; every occurrence is settled once, by one of them.
func TestServiceDeliversOnceAcrossInstances(t *testing.T) {
	w := newWired(t)
	ctx := context.Background()
	if _, err := Subscribe(ctx, w.cs, w.r, w.params(GenerateSecret())); err != nil {
		t.Fatal(err)
	}
	shared := &refusingRegistry{Registry: w.svc.opts.Registry, refused: make(chan struct{}, 1)}
	otherSettled := make(chan string, 64)
	other := NewService(&ServiceOptions{
		Registry: shared, Sender: w.sender, Rescan: 5 * time.Millisecond,
		Settled: func(_, id string, _ error) { otherSettled <- id },
	})
	runCtx, cancel := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- other.Run(runCtx, w.es) }()
	defer func() {
		cancel()
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Errorf("the second Run returned %v, want context.Canceled", err)
		}
	}()

	// The first delivery is held at the receiver until the other instance
	// has shown it takes part: a claim refused, or a delivery of its own.
	release := make(chan struct{})
	w.hold.Store(&release)
	var once sync.Once
	letGo := func() { once.Do(func() { close(release) }) }
	defer letGo()
	var ids []string
	for n := 1; n <= 5; n++ {
		ids = append(ids, w.emit(t, n).EventID)
	}
	w.next(t)
	settled := map[string]int{}
	select {
	case <-shared.refused:
	case id := <-otherSettled:
		settled[id]++
	case <-time.After(10 * time.Second):
		t.Fatal("the other instance took no part within 10 s")
	}
	letGo()

	for len(settled) < len(ids) {
		select {
		case id := <-w.settled:
			settled[id]++
		case id := <-otherSettled:
			settled[id]++
		case <-time.After(10 * time.Second):
			t.Fatalf("settled %v within 10 s, want each of %v", settled, ids)
		}
	}
	// The one that delivered the last occurrence had the watermark past
	// every other: a duplicate would have been settled by now.
	for {
		select {
		case id := <-w.settled:
			settled[id]++
			continue
		case id := <-otherSettled:
			settled[id]++
			continue
		default:
		}
		break
	}
	for _, id := range ids {
		if settled[id] != 1 {
			t.Errorf("%s settled %d times, want once", id, settled[id])
		}
	}
}
