package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// testRedisURL returns the -redis URL the instances of a test share: a
// miniredis, or, with GOMCP_REDIS_ADDR set as .ci/redis.sh does, that
// real Redis, flushed first.
func testRedisURL(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("GOMCP_REDIS_ADDR")
	if addr == "" {
		return "redis://" + miniredis.RunT(t).Addr() + "/0"
	}
	c := goredis.NewClient(&goredis.Options{Addr: addr})
	defer c.Close()
	if err := c.FlushDB(t.Context()).Err(); err != nil {
		t.Fatalf("flushing %s: %v", addr, err)
	}
	return "redis://" + addr + "/0"
}

// settlement is one webhook message settled by an instance's Service.
type settlement struct {
	instance, messageID string
	err                 error
}

// tickInstance is one everything-server instance as main runs it with
// -redis and -conformance-events: its state on the test's Redis, its
// webhook delivery loop running, behind streamable HTTP, and a client
// with the Events extension connected to it.
type tickInstance struct {
	cs           *mcp.ClientSession
	ec           *events.Client
	stopDelivery func() // ends the delivery loop, once it has returned
}

// startTickInstance starts an instance on the Redis at url whose Sender
// trusts roots (and loopback) and whose Service tells settled of each
// message it settles, and connects a client of the protocol version; all
// stops at the test's end.
func startTickInstance(t *testing.T, name, url, version string, roots *x509.CertPool, settled chan<- settlement) *tickInstance {
	t.Helper()
	scale, err := newScaleOut(redisFlags{single: url}, strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scale.close)
	sender := webhook.NewSender(&webhook.SenderOptions{TLSConfig: &tls.Config{RootCAs: roots}, InsecureAllowPrivateAndHTTP: true})
	t.Cleanup(sender.Close)
	hooks := newWebhookFixture(true, &fixtureOptions{sender: sender, registry: scale.webhookRegistry(),
		settled: func(_, id string, err error) { settled <- settlement{name, id, err} }})
	srv := newServerWith(hooks, scale)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- hooks.svc.Run(ctx, hooks.es) }()
	var once sync.Once
	in := &tickInstance{stopDelivery: func() {
		once.Do(func() {
			cancel()
			if err := <-stopped; !errors.Is(err, context.Canceled) {
				t.Errorf("%s: Run: %v", name, err)
			}
		})
	}}
	t.Cleanup(in.stopDelivery)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, scale.tuneHandler(&mcp.StreamableHTTPOptions{}))
	mcpSrv := httptest.NewServer(handler)
	t.Cleanup(func() {
		mcpSrv.Close()
		handler.Close()
	})
	c := mcp.NewClient("harness-"+name, "v1.0.0", &mcp.ClientOptions{ProtocolVersion: version})
	in.ec = events.EnableClient(c, nil)
	if in.cs, err = c.Connect(t.Context(), mcp.NewStreamableClientTransport(mcpSrv.URL, nil)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.cs.Close() })
	return in
}

// emit calls emit_tick on the instance and returns its n.
func (in *tickInstance) emit(t *testing.T) int {
	t.Helper()
	res, err := in.cs.CallTool(t.Context(), "emit_tick", map[string]any{}, nil)
	if err != nil || res.IsError {
		t.Fatalf("emit_tick: %v %+v", err, res)
	}
	raw, err := json.Marshal(res.StructuredContent)
	var tk tick
	if err == nil {
		err = json.Unmarshal(raw, &tk)
	}
	if err != nil || tk.N < 1 {
		t.Fatalf("emit_tick's result %+v: n %d, %v", res.StructuredContent, tk.N, err)
	}
	return tk.N
}

// poll polls test.tick on the instance after cursor (nil: from now).
func (in *tickInstance) poll(t *testing.T, cursor *string) *events.PollResult {
	t.Helper()
	res, err := events.Poll(t.Context(), in.cs, &events.PollParams{Name: tickEvent, Arguments: []byte(`{}`), Cursor: cursor})
	if err != nil || res.Cursor == nil || res.Truncated {
		t.Fatalf("poll after %v: %+v, %v", cursor, res, err)
	}
	return res
}

// ticks returns the n of each occurrence.
func ticks(t *testing.T, occurrences []*events.Occurrence) []int {
	t.Helper()
	ns := make([]int, len(occurrences))
	for i, o := range occurrences {
		var tk tick
		if err := json.Unmarshal(o.Data, &tk); err != nil {
			t.Fatalf("occurrence %s: %v", o.Data, err)
		}
		ns[i] = tk.N
	}
	return ns
}

// TestTickScaleOut: two instances on one Redis serve test.tick as one.
// n counts the ticks of both; an occurrence emitted on A is polled on B,
// from A's cursor, and reaches a push stream on B; a webhook subscription
// made through A is delivered once per occurrence while both instances'
// delivery loops run, by B alone once A's stops, and unsubscribed through
// B.
func TestTickScaleOut(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) {
			endpoint := newCountingEndpoint(t)
			url := testRedisURL(t)
			settled := make(chan settlement, 64)
			a := startTickInstance(t, "a", url, version, endpoint.roots, settled)
			b := startTickInstance(t, "b", url, version, endpoint.roots, settled)
			t.Run("poll and push", func(t *testing.T) { testTickPollAndPush(t, a, b) })
			t.Run("webhook", func(t *testing.T) { testTickWebhookOnce(t, a, b, endpoint, settled) })
		})
	}
}

// testTickPollAndPush emits on A and B and reads on B: by poll from A's
// cursor, and by push stream.
func testTickPollAndPush(t *testing.T, a, b *tickInstance) {
	fromA := a.poll(t, nil)
	if len(fromA.Events) != 0 {
		t.Fatalf("a poll from now returned %d occurrences", len(fromA.Events))
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pushed, done := make(chan int, 8), make(chan error, 1)
	fromB := b.poll(t, nil)
	go func() {
		done <- b.ec.Stream(ctx, b.cs, tickEvent, &events.StreamOptions{Cursor: fromB.Cursor,
			OnEvent: func(_ context.Context, o *events.Occurrence) error {
				var tk tick
				if err := json.Unmarshal(o.Data, &tk); err != nil {
					return err
				}
				pushed <- tk.N
				return nil
			}})
	}()
	n1 := a.emit(t)
	if n2 := b.emit(t); n2 != n1+1 {
		t.Fatalf("emit_tick on B after n=%d on A: n=%d, want one count for both", n1, n2)
	}
	res := b.poll(t, fromA.Cursor)
	if got := ticks(t, res.Events); len(got) != 2 || got[0] != n1 || got[1] != n1+1 {
		t.Fatalf("B polled after A's cursor: n %v, want [%d %d]", got, n1, n1+1)
	}
	n3 := a.emit(t)
	if got := ticks(t, b.poll(t, res.Cursor).Events); len(got) != 1 || got[0] != n3 || n3 != n1+2 {
		t.Fatalf("B polled after its cursor: n %v, want [%d]", got, n1+2)
	}
	for want := n1; want <= n3; want++ {
		select {
		case n := <-pushed:
			if n != want {
				t.Fatalf("B's push stream got n=%d, want %d", n, want)
			}
		case err := <-done:
			t.Fatalf("B's push stream ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatalf("B's push stream: n=%d did not arrive", want)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Stream: %v", err)
	}
}

// TestNextTick: emit_tick's n is local without Redis; on Redis it is one
// count for every scaleOut sharing it, and an error, not a local n that
// could repeat another instance's, when Redis is gone.
func TestNextTick(t *testing.T) {
	m := miniredis.RunT(t)
	open := func() *scaleOut {
		s, err := newScaleOut(redisFlags{single: "redis://" + m.Addr() + "/0"}, strings.Repeat("ab", 32))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.close)
		return s
	}
	a, b := open(), open()
	var local atomic.Int64
	tests := []struct {
		name    string
		s       *scaleOut
		want    int64
		wantErr bool
	}{
		{"no Redis", nil, 1, false},
		{"no Redis again", nil, 2, false},
		{"instance A", a, 1, false},
		{"instance B", b, 2, false},
		{"instance A again", a, 3, false},
		{"Redis gone", b, 0, true},
	}
	for _, tt := range tests {
		if tt.wantErr {
			m.Close()
		}
		n, err := tt.s.nextTick(t.Context(), &local)
		if n != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s: nextTick = %d, %v; want %d, error %v", tt.name, n, err, tt.want, tt.wantErr)
		}
	}
}
