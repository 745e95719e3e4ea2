package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/eventstest"
)

// TestMemoryLogContract runs the contract tests of events.Log on a
// MemoryLog; two instances of a server in one process share the value.
func TestMemoryLogContract(t *testing.T) {
	eventstest.Run(t, func(t *testing.T) (events.Log, events.Log) {
		l := events.NewMemoryLog(nil)
		return l, l
	})
}

// TestMemoryLogRetention: records past MaxRecords or MaxAge are dropped,
// and a cursor before them reads as a gap whose Next leads to the oldest
// record kept.
func TestMemoryLogRetention(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	l := events.NewMemoryLog(&events.MemoryLogOptions{MaxRecords: 3, MaxAge: time.Hour, Now: func() time.Time { return now }})
	ctx := context.Background()
	head := mustRead(t, l, events.ReadRequest{Name: "x", Max: 1}).Next
	for i := range 5 {
		if _, err := l.Append(ctx, events.Record{EventID: fmt.Sprint(i), Name: "x", Time: now, Data: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	gap := mustRead(t, l, events.ReadRequest{Name: "x", After: head, Max: 10})
	if !gap.Truncated || len(gap.Records) != 0 {
		t.Fatalf("read from before 2 dropped records = %+v, want a gap", gap)
	}
	if got := ids(mustRead(t, l, events.ReadRequest{Name: "x", After: gap.Next, Max: 10}).Records); got != "[2 3 4]" {
		t.Fatalf("after the gap: %s, want [2 3 4]", got)
	}
	now = now.Add(2 * time.Hour) // every record is now too old
	r := mustRead(t, l, events.ReadRequest{Name: "x", After: gap.Next, Max: 10})
	if !r.Truncated || len(r.Records) != 0 {
		t.Fatalf("read after MaxAge = %+v, want a gap", r)
	}
}

// TestMemoryLogRestart: a cursor of another MemoryLog (one from before a
// restart) reads as a gap at the new log's head, never as a position in
// it.
func TestMemoryLogRestart(t *testing.T) {
	ctx := context.Background()
	old := events.NewMemoryLog(nil)
	cursor, err := old.Append(ctx, events.Record{EventID: "a", Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	fresh := events.NewMemoryLog(nil)
	for _, id := range []string{"b", "c"} {
		if _, err := fresh.Append(ctx, events.Record{EventID: id, Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	r := mustRead(t, fresh, events.ReadRequest{Name: "x", After: cursor, Max: 10})
	if !r.Truncated || len(r.Records) != 0 {
		t.Fatalf("read with an old log's cursor = %+v, want a gap", r)
	}
	if next := mustRead(t, fresh, events.ReadRequest{Name: "x", After: r.Next, Max: 10}); len(next.Records) != 0 {
		t.Fatalf("the gap's Next is not the head: %s follow", ids(next.Records))
	}
}

func mustRead(t *testing.T, l events.Log, req events.ReadRequest) events.ReadResult {
	t.Helper()
	r, err := l.Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ids(recs []events.Record) string {
	var out []string
	for _, r := range recs {
		out = append(out, r.EventID)
	}
	return fmt.Sprint(out)
}

// FuzzMemoryLogCursor: no cursor makes a read panic; one the log did not
// make is a malformed-cursor error or a gap.
func FuzzMemoryLogCursor(f *testing.F) {
	l := events.NewMemoryLog(nil)
	c, _ := l.Append(context.Background(), events.Record{EventID: "a", Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)})
	f.Add(c)
	f.Add("")
	f.Add("abc.18446744073709551615")
	f.Add(".1")
	f.Fuzz(func(t *testing.T, cursor string) {
		r, err := l.Read(context.Background(), events.ReadRequest{Name: "x", After: cursor, Max: 5})
		if err == nil && r.Next == "" {
			t.Fatalf("read after %q: no Next", cursor)
		}
	})
}
