package main

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// TestInbox polls the example's event type in both protocol eras: a
// message sent with the tool is received from the cursor taken before,
// and a subscription filtered to another sender receives nothing.
func TestInbox(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := newServer().Connect(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			c := mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: version})
			events.EnableClient(c, nil)
			cs, err := c.Connect(ctx, ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			start, err := events.Poll(ctx, cs, &events.PollParams{Name: "inbox.message"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, "send_message", Message{From: "ada", Subject: "hello"}, nil); err != nil {
				t.Fatal(err)
			}
			got, err := events.Poll(ctx, cs, &events.PollParams{Name: "inbox.message", Cursor: start.Cursor})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Events) != 1 || string(got.Events[0].Data) != `{"from":"ada","subject":"hello"}` {
				t.Fatalf("events %+v", got.Events)
			}
			other, err := events.Poll(ctx, cs, &events.PollParams{Name: "inbox.message", Arguments: []byte(`{"from":"bob"}`), Cursor: start.Cursor})
			if err != nil {
				t.Fatal(err)
			}
			if len(other.Events) != 0 {
				t.Fatalf("bob's subscription got %+v", other.Events)
			}
		})
	}
}
