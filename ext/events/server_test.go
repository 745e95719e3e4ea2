package events

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestCapability: the server declares the extension in
// capabilities.extensions, with a boolean listChanged, and the top-level
// "events" member deployed clients read, in server/discover (2026-07-28)
// and in initialize (earlier revisions).
func TestCapability(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(nil, nil)
			c := connectTo(t, s, version, nil)
			caps := c.cs.ServerCapabilities()
			ext, ok := caps.Extensions[ExtensionID].(map[string]any)
			if !ok {
				t.Fatalf("extensions[%q] = %#v, want an object", ExtensionID, caps.Extensions[ExtensionID])
			}
			if v, ok := ext["listChanged"].(bool); !ok || !v {
				t.Errorf("listChanged = %#v, want true", ext["listChanged"])
			}
			top, ok := caps.Other[LegacyCapability].(map[string]any)
			if !ok || top["listChanged"] != true {
				t.Errorf("capabilities.events = %#v, want {listChanged: true}", caps.Other[LegacyCapability])
			}
			// On the wire, both members sit in the capabilities object.
			log := c.log.String()
			if !strings.Contains(log, `"events":{"listChanged":true}`) || !strings.Contains(log, `"io.modelcontextprotocol/events":{"listChanged":true}`) {
				t.Errorf("handshake does not declare both members:\n%s", log)
			}
		})
	}
}

// TestServerWithoutExtension: a server without the extension answers
// events/* with -32601, and the client functions do not call it.
func TestServerWithoutExtension(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			c := connectTo(t, mcp.NewServer("plain", "v1", nil), version, nil)
			for _, method := range []string{MethodList, MethodPoll, MethodStream, MethodSubscribe} {
				if e := rpcError(t, c.cs, method, &PollParams{Name: "x"}); e.Code != mcp.CodeMethodNotFound {
					t.Errorf("%s: code %d, want -32601", method, e.Code)
				}
			}
			before := c.log.String()
			ctx := context.Background()
			if _, err := ListTypes(ctx, c.cs); !errors.Is(err, ErrNotSupported) {
				t.Errorf("ListTypes: %v, want ErrNotSupported", err)
			}
			if _, err := Poll(ctx, c.cs, &PollParams{Name: "x"}); !errors.Is(err, ErrNotSupported) {
				t.Errorf("Poll: %v, want ErrNotSupported", err)
			}
			if err := c.ec.Stream(ctx, c.cs, "x", nil); !errors.Is(err, ErrNotSupported) {
				t.Errorf("Stream: %v, want ErrNotSupported", err)
			}
			if c.log.String() != before {
				t.Errorf("the client sent events/* to a server without the extension:\n%s", strings.TrimPrefix(c.log.String(), before))
			}
		})
	}
}

// TestList: events/list describes every type, with a non-empty delivery
// subset and object schemas; pagination ends without nextCursor; in
// 2026-07-28 the result says resultType complete.
func TestList(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(&ServerOptions{PageSize: 2}, nil)
			c := connectTo(t, s, version, nil)
			first := raw(t, c.cs, MethodList, &ListParams{})
			if got := first["resultType"]; (version == mcp.Version20260728) != (got == "complete") {
				t.Errorf("resultType = %v in %s", got, version)
			}
			if first["nextCursor"] == nil {
				t.Fatalf("a page of 2 of 3 types has no nextCursor: %v", first)
			}
			types, err := ListTypes(context.Background(), c.cs)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, et := range types {
				names = append(names, et.Name)
				if len(et.Delivery) == 0 {
					t.Errorf("%s: empty delivery", et.Name)
				}
				for _, d := range et.Delivery {
					if d != DeliveryPoll && d != DeliveryPush && d != DeliveryWebhook {
						t.Errorf("%s: delivery %q", et.Name, d)
					}
				}
				if et.InputSchema == nil || et.InputSchema.Type != "object" || et.PayloadSchema == nil || et.PayloadSchema.Type != "object" {
					t.Errorf("%s: schemas %v %v, want objects", et.Name, et.InputSchema, et.PayloadSchema)
				}
				if et.Description == "" {
					t.Errorf("%s: no description", et.Name)
				}
			}
			if got := strings.Join(names, " "); got != "email.received tick.poll tick.push" {
				t.Errorf("types %s", got)
			}
			if p := types[0].PayloadSchema.Properties; p["from"] == nil || p["subject"] == nil {
				t.Errorf("payload schema not inferred from the Go type: %v", types[0].PayloadSchema)
			}
		})
	}
}

// TestPollResults: a poll result has cursor, truncated, hasMore and
// nextPollMs; a null cursor returns no events and a fresh cursor; events
// have eventId, name, an RFC 3339 timestamp and object data, in order;
// maxEvents bounds a batch and hasMore tells the rest; the arguments
// filter.
func TestPollResults(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(&ServerOptions{PollInterval: 2500 * time.Millisecond}, nil)
			c := connectTo(t, s, version, nil)
			ctx := context.Background()
			emit(t, es, "email.received", mail{From: "ada", Subject: "before"}, nil)
			start := raw(t, c.cs, MethodPoll, &PollParams{Name: "email.received", Arguments: json.RawMessage(`{}`)})
			for _, member := range []string{"events", "cursor", "truncated", "hasMore", "nextPollMs"} {
				if _, ok := start[member]; !ok {
					t.Errorf("poll result lacks %s: %v", member, start)
				}
			}
			if evs, _ := start["events"].([]any); len(evs) != 0 || start["truncated"] != false || start["hasMore"] != false || start["nextPollMs"] != float64(2500) {
				t.Errorf("poll from now = %v, want no events, not truncated, nextPollMs 2500", start)
			}
			cursor, ok := start["cursor"].(string)
			if !ok || cursor == "" {
				t.Fatalf("cursor %v, want a string", start["cursor"])
			}
			if got := start["resultType"]; (version == mcp.Version20260728) != (got == "complete") {
				t.Errorf("resultType = %v in %s", got, version)
			}
			at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
			emit(t, es, "email.received", mail{From: "ada", Subject: "one"}, &EmitOptions{EventID: "msg-1", Time: at})
			emit(t, es, "email.received", mail{From: "bob", Subject: "two"}, nil)
			emit(t, es, "email.received", mail{From: "ada", Subject: "three"}, nil)

			res, err := Poll(ctx, c.cs, &PollParams{Name: "email.received", Cursor: &cursor, MaxEvents: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Events) != 2 || !res.HasMore || res.Truncated || res.Cursor == nil {
				t.Fatalf("poll of 2 = %d events, hasMore %v, truncated %v, cursor %v", len(res.Events), res.HasMore, res.Truncated, res.Cursor)
			}
			e := res.Events[0]
			if e.EventID != "msg-1" || e.Name != "email.received" || e.Timestamp != "2026-11-30T09:00:00Z" || string(e.Data) != `{"from":"ada","subject":"one"}` || e.Cursor != nil {
				t.Errorf("first event = %+v", e)
			}
			if _, err := time.Parse(time.RFC3339Nano, res.Events[1].Timestamp); err != nil || res.Events[1].EventID == "" {
				t.Errorf("second event = %+v: %v", res.Events[1], err)
			}
			rest, err := Poll(ctx, c.cs, &PollParams{Name: "email.received", Cursor: res.Cursor})
			if err != nil {
				t.Fatal(err)
			}
			if len(rest.Events) != 1 || rest.HasMore || subject(t, rest.Events[0]) != "three" {
				t.Fatalf("rest = %+v", rest)
			}
			// The same cursor, filtered to bob's mail.
			bob, err := Poll(ctx, c.cs, &PollParams{Name: "email.received", Arguments: json.RawMessage(`{"from":"bob"}`), Cursor: &cursor})
			if err != nil {
				t.Fatal(err)
			}
			if len(bob.Events) != 1 || subject(t, bob.Events[0]) != "two" {
				t.Fatalf("bob's = %+v", bob.Events)
			}
		})
	}
}

// subject returns the subject of an email.received occurrence.
func subject(t *testing.T, o *Occurrence) string {
	t.Helper()
	var m mail
	if err := json.Unmarshal(o.Data, &m); err != nil {
		t.Fatal(err)
	}
	return m.Subject
}

// TestPollMaxAge: with maxAgeMs, replay starts at the later of the cursor
// and now - maxAgeMs; a floor past the cursor gives truncated and a fresh
// cursor, from which the rest follows.
func TestPollMaxAge(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(nil, nil)
			c := connectTo(t, s, version, nil)
			ctx := context.Background()
			start, err := Poll(ctx, c.cs, &PollParams{Name: "tick.poll"})
			if err != nil {
				t.Fatal(err)
			}
			emit(t, es, "tick.poll", tick{N: 1}, &EmitOptions{Time: time.Now().Add(-time.Hour)})
			emit(t, es, "tick.poll", tick{N: 2}, nil)
			gap, err := Poll(ctx, c.cs, &PollParams{Name: "tick.poll", Cursor: start.Cursor, MaxAgeMs: ptr(int64(60_000))})
			if err != nil {
				t.Fatal(err)
			}
			if !gap.Truncated || len(gap.Events) != 0 || gap.Cursor == nil || *gap.Cursor == *start.Cursor {
				t.Fatalf("poll past the floor = %+v, want truncated with a fresh cursor", gap)
			}
			next, err := Poll(ctx, c.cs, &PollParams{Name: "tick.poll", Cursor: gap.Cursor, MaxAgeMs: ptr(int64(60_000))})
			if err != nil {
				t.Fatal(err)
			}
			if len(next.Events) != 1 || string(next.Events[0].Data) != `{"n":2}` || next.Truncated {
				t.Fatalf("after the gap = %+v", next)
			}
			// maxAgeMs is ignored for a null cursor.
			now, err := Poll(ctx, c.cs, &PollParams{Name: "tick.poll", MaxAgeMs: ptr(int64(1))})
			if err != nil || now.Truncated || len(now.Events) != 0 {
				t.Fatalf("poll from now with maxAgeMs = %+v, %v", now, err)
			}
		})
	}
}

// TestRequestErrors: unknown types are NotFound with data.kind "event";
// arguments that do not match the input schema, malformed cursors, a
// negative maxEvents or maxAgeMs (with a cursor) and missing names are
// -32602; a mode the type does not offer is
// Unsupported with data.feature deliveryMode; events/subscribe without
// webhook delivery is Unsupported, and events/unsubscribe NotFound with
// data.kind "subscription"; Authorize's refusal is Forbidden.
func TestRequestErrors(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		params   any
		code     mcp.ErrorCode
		wantData map[string]any
	}{
		{"poll of an unknown type", MethodPoll, &PollParams{Name: "nope"}, CodeNotFound, map[string]any{"kind": "event", "name": "nope"}},
		{"stream of an unknown type", MethodStream, &StreamParams{Name: "nope"}, CodeNotFound, map[string]any{"kind": "event", "name": "nope"}},
		{"arguments against the input schema", MethodPoll, &PollParams{Name: "email.received", Arguments: json.RawMessage(`{"from":5}`)}, mcp.CodeInvalidParams, nil},
		{"arguments not an object", MethodPoll, &PollParams{Name: "tick.poll", Arguments: json.RawMessage(`[]`)}, mcp.CodeInvalidParams, nil},
		{"unknown argument", MethodPoll, &PollParams{Name: "tick.poll", Arguments: json.RawMessage(`{"x":1}`)}, mcp.CodeInvalidParams, nil},
		{"malformed cursor", MethodPoll, &PollParams{Name: "tick.poll", Cursor: ptr("garbage")}, mcp.CodeInvalidParams, nil},
		{"negative maxEvents", MethodPoll, &PollParams{Name: "tick.poll", MaxEvents: -1}, mcp.CodeInvalidParams, nil},
		{"negative maxAgeMs", MethodPoll, &PollParams{Name: "tick.poll", Cursor: ptr("other.0"), MaxAgeMs: ptr(int64(-1))}, mcp.CodeInvalidParams, nil},
		{"negative maxAgeMs on a stream", MethodStream, &StreamParams{Name: "tick.push", Cursor: ptr("other.0"), MaxAgeMs: ptr(int64(-1))}, mcp.CodeInvalidParams, nil},
		{"missing name", MethodPoll, &PollParams{}, mcp.CodeInvalidParams, nil},
		{"poll of a push-only type", MethodPoll, &PollParams{Name: "tick.push"}, CodeUnsupported, map[string]any{"feature": "deliveryMode", "value": "poll"}},
		{"stream of a poll-only type", MethodStream, &StreamParams{Name: "tick.poll"}, CodeUnsupported, map[string]any{"feature": "deliveryMode", "value": "push"}},
		{"subscribe without webhooks", MethodSubscribe, &SubscribeParams{Name: "tick.poll", Delivery: &WebhookTarget{Mode: "webhook", URL: "https://example.com/hook", Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}, CodeUnsupported, map[string]any{"feature": "deliveryMode", "value": "webhook"}},
		{"subscribe to an unknown type", MethodSubscribe, &SubscribeParams{Name: "nope"}, CodeNotFound, map[string]any{"kind": "event", "name": "nope"}},
		{"unsubscribe of a key not held", MethodUnsubscribe, &UnsubscribeParams{Name: "tick.poll", Delivery: &WebhookTarget{URL: "https://example.com/hook"}}, CodeNotFound, map[string]any{"kind": "subscription"}},
	}
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, _ := newTestServer(nil, nil)
			c := connectTo(t, s, version, nil)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					e := rpcError(t, c.cs, tt.method, tt.params)
					if e.Code != tt.code {
						t.Fatalf("code %d (%s), want %d", e.Code, e.Message, tt.code)
					}
					if tt.wantData != nil {
						got := errorData(t, e)
						for k, v := range tt.wantData {
							if got[k] != v {
								t.Errorf("data.%s = %v, want %v (data %v)", k, got[k], v, got)
							}
						}
					}
				})
			}
		})
	}
	t.Run("forbidden", func(t *testing.T) {
		s, _ := newTestServer(&ServerOptions{Authorize: func(context.Context, *mcp.ServerSession, *EventType, json.RawMessage) error {
			return errors.New("not your inbox")
		}}, nil)
		c := connectTo(t, s, mcp.Version20260728, nil)
		e := rpcError(t, c.cs, MethodPoll, &PollParams{Name: "email.received"})
		if e.Code != CodeForbidden || KindOf(e) != KindForbidden {
			t.Fatalf("code %d, want Forbidden %d", e.Code, CodeForbidden)
		}
	})
}

// TestKindOf: a client accepts both numberings of the extension's errors.
func TestKindOf(t *testing.T) {
	tests := []struct {
		code mcp.ErrorCode
		want Kind
	}{
		{-32023, KindNotFound}, {-32024, KindForbidden}, {-32025, KindResourceExhausted},
		{-32026, KindUnsupported}, {-32027, KindCallbackEndpointError},
		{-32011, KindNotFound}, {-32012, KindForbidden}, {-32013, KindResourceExhausted},
		{-32014, KindUnsupported}, {-32015, KindCallbackEndpointError},
		{-32602, KindInvalidParams}, {-32601, ""}, {-32016, ""},
	}
	for _, tt := range tests {
		err := error(&mcp.JSONRPCError{Code: tt.code, Message: "x"})
		if got := KindOf(fmtWrap(err)); got != tt.want {
			t.Errorf("KindOf(%d) = %q, want %q", tt.code, got, tt.want)
		}
	}
	if KindOf(errors.New("plain")) != "" {
		t.Error("KindOf of a plain error")
	}
}

// fmtWrap wraps err as the client functions do.
func fmtWrap(err error) error { return errors.Join(errors.New("events"), err) }

// TestEmitChecks: Emit refuses unknown types and payloads that do not
// match the payload schema.
func TestEmitChecks(t *testing.T) {
	_, es := newTestServer(nil, nil)
	ctx := context.Background()
	if _, err := es.Emit(ctx, "nope", tick{}, nil); err == nil {
		t.Error("Emit of an unknown type succeeded")
	}
	if _, err := es.Emit(ctx, "tick.poll", map[string]any{"n": "three"}, nil); err == nil {
		t.Error("Emit of a payload against the schema succeeded")
	}
	if _, err := es.Emit(ctx, "tick.poll", json.RawMessage(`{"n":3}`), nil); err != nil {
		t.Errorf("Emit of raw JSON: %v", err)
	}
}

// TestInstancesShareALog: two server instances over one Log hand out
// cursors either resumes: an occurrence emitted on one is polled from the
// other with the first's cursor, and reaches a push stream on the other.
func TestInstancesShareALog(t *testing.T) {
	log := NewMemoryLog(nil)
	sa, a := newTestServer(&ServerOptions{Log: log, Heartbeat: time.Hour}, nil)
	sb, _ := newTestServer(&ServerOptions{Log: log, Heartbeat: time.Hour}, nil)
	ca := connectTo(t, sa, mcp.Version20260728, nil)
	cb := connectTo(t, sb, mcp.Version20260728, nil)
	ctx := context.Background()
	start, err := Poll(ctx, ca.cs, &PollParams{Name: "email.received"})
	if err != nil {
		t.Fatal(err)
	}
	r := startStream(t, cb, "email.received", nil)
	within(t, r.opened, "the stream on the second instance")
	emit(t, a, "email.received", mail{From: "ada", Subject: "shared"}, nil)
	if o := within(t, r.events, "the event on the other instance's stream"); subject(t, o) != "shared" {
		t.Fatalf("pushed %s", o.Data)
	}
	res, err := Poll(ctx, cb.cs, &PollParams{Name: "email.received", Cursor: start.Cursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || subject(t, res.Events[0]) != "shared" || res.Truncated {
		t.Fatalf("poll on the second instance with the first's cursor = %+v", res)
	}
}
