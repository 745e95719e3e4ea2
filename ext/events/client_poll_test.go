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

// TestPollLoopDrainsAndWaits: PollLoop polls again at once while hasMore,
// then waits nextPollMs, never less than the 1 s floor; it reports each
// cursor to keep, and the events in order.
func TestPollLoopDrainsAndWaits(t *testing.T) {
	tests := []struct {
		name     string
		interval time.Duration // the server's nextPollMs
		floor    time.Duration
		want     time.Duration
	}{
		{"nextPollMs below the default floor", 10 * time.Millisecond, 0, time.Second},
		{"nextPollMs above the floor", 3 * time.Second, 0, 3 * time.Second},
		{"a configured floor", 2 * time.Second, 5 * time.Second, 5 * time.Second},
	}
	for _, version := range versions {
		for _, tt := range tests {
			t.Run(version+"/"+tt.name, func(t *testing.T) {
				s, es := newTestServer(&ServerOptions{PollInterval: tt.interval}, nil)
				c := connectTo(t, s, version, nil)
				start, err := Poll(context.Background(), c.cs, &PollParams{Name: "tick.poll"})
				if err != nil {
					t.Fatal(err)
				}
				for n := 1; n <= 5; n++ {
					emit(t, es, "tick.poll", tick{N: n}, nil)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var got []string
				var cursors []string
				var waits []time.Duration
				polls := 0
				opts := &PollOptions{
					Cursor:      start.Cursor,
					MaxEvents:   2,
					MinInterval: tt.floor,
					OnEvent: func(_ context.Context, o *Occurrence) error {
						got = append(got, string(o.Data))
						return nil
					},
					OnCursor: func(c string, truncated bool) {
						polls++
						cursors = append(cursors, c)
					},
					wait: func(ctx context.Context, d time.Duration) error {
						waits = append(waits, d)
						cancel()
						return ctx.Err()
					},
				}
				if err := PollLoop(ctx, c.cs, "tick.poll", opts); !errors.Is(err, context.Canceled) {
					t.Fatalf("PollLoop: %v", err)
				}
				if want := `[{"n":1} {"n":2} {"n":3} {"n":4} {"n":5}]`; fmtList(got) != want {
					t.Errorf("events %v, want %s", got, want)
				}
				if polls != 3 || len(waits) != 1 || waits[0] != tt.want {
					t.Errorf("%d polls, waits %v; want 3 polls (2+2+1, hasMore drained at once) and one wait of %v", polls, waits, tt.want)
				}
				if len(cursors) == 3 && (cursors[0] == cursors[1] || cursors[1] == cursors[2]) {
					t.Errorf("cursors did not advance: %v", cursors)
				}
			})
		}
	}
}

// fmtList formats strings as fmt formats a slice of them.
func fmtList(s []string) string { return "[" + strings.Join(s, " ") + "]" }

// TestPollLoopCursors: a truncated result's fresh cursor is reported (with
// truncated) and a null cursor never is; the poll after a null cursor
// sends null.
func TestPollLoopCursors(t *testing.T) {
	// A server whose poll results come from a script.
	script := []*PollResult{
		{Events: []*Occurrence{}, Cursor: ptr("fresh"), Truncated: true, HasMore: true},
		{Events: []*Occurrence{}, Cursor: nil, NextPollMs: 5},
		{Events: []*Occurrence{}, Cursor: ptr("after-null"), NextPollMs: 5},
	}
	var sent []*string
	s := mcp.NewServer("scripted", "v1", nil)
	s.AddExtension(ExtensionID, nil, mcp.NewServerMethod(MethodPoll, func(_ context.Context, _ *mcp.ServerSession, p *PollParams) (*PollResult, error) {
		sent = append(sent, p.Cursor)
		if len(sent) > len(script) {
			return nil, &mcp.JSONRPCError{Code: -32011, Message: "gone", Data: json.RawMessage(`{"kind":"event"}`)}
		}
		return script[len(sent)-1], nil
	}, nil))
	c := connectTo(t, s, mcp.Version20260728, nil)
	type report struct {
		cursor    string
		truncated bool
	}
	var reports []report
	err := PollLoop(context.Background(), c.cs, "x", &PollOptions{
		Cursor:   ptr("start"),
		OnCursor: func(c string, tr bool) { reports = append(reports, report{c, tr}) },
		wait:     func(context.Context, time.Duration) error { return nil },
	})
	var term *TerminatedError
	if !errors.As(err, &term) || term.Kind != KindNotFound || !term.Retryable() {
		t.Fatalf("PollLoop ended with %v, want a NotFound TerminatedError (sketch numbering -32011)", err)
	}
	if len(reports) != 2 || reports[0] != (report{"fresh", true}) || reports[1] != (report{"after-null", false}) {
		t.Errorf("cursors reported %v, want fresh (truncated) then after-null, never null", reports)
	}
	var got []string
	for _, c := range sent {
		if c == nil {
			got = append(got, "null")
		} else {
			got = append(got, *c)
		}
	}
	if fmtList(got) != "[start fresh null after-null]" {
		t.Errorf("cursors sent %v, want [start fresh null after-null]", got)
	}
}

// TestPollLoopTerminated: a type removed while a client polls ends the
// loop with a NotFound TerminatedError.
func TestPollLoopTerminated(t *testing.T) {
	for _, version := range versions {
		t.Run(version, func(t *testing.T) {
			s, es := newTestServer(nil, nil)
			c := connectTo(t, s, version, nil)
			err := PollLoop(context.Background(), c.cs, "tick.poll", &PollOptions{
				wait: func(context.Context, time.Duration) error {
					es.RemoveTypes("tick.poll")
					return nil
				},
			})
			var term *TerminatedError
			if !errors.As(err, &term) || term.Kind != KindNotFound || term.Code != int64(CodeNotFound) {
				t.Fatalf("PollLoop: %v, want NotFound", err)
			}
		})
	}
}
