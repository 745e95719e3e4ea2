// Package eventstest holds the contract tests of events.Log, for the
// in-memory log and every backend: a backend's tests call Run with a
// function that makes empty logs.
package eventstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events"
)

// NewLogFunc returns a new, empty log as two handles: two server
// instances' views of one shared log (for a Redis backend, two clients of
// one server; for a log in memory, the same value twice).
type NewLogFunc func(t *testing.T) (first, second events.Log)

// Run runs the contract tests of events.Log against the logs newLog makes.
func Run(t *testing.T, newLog NewLogFunc) {
	tests := []struct {
		name string
		run  func(t *testing.T, a, b events.Log)
	}{
		{"a read from now returns nothing and the head", readFromNow},
		{"records come back in order with their cursors", inOrder},
		{"max bounds a read and more tells the rest", maxAndMore},
		{"a cursor from one instance resumes on another", acrossInstances},
		{"each event type has its own sequence", perType},
		{"records older than since are a gap", sinceIsAGap},
		{"a malformed cursor is an error", malformedCursor},
		{"an append closes the changed channel", changedOnAppend},
		{"concurrent appends are all kept, each once", concurrentAppends},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newLog(t)
			tt.run(t, a, b)
		})
	}
}

// appendN appends n records of name with data {"n": i} and returns their
// cursors.
func appendN(t *testing.T, l events.Log, name string, from, n int) []string {
	t.Helper()
	var cursors []string
	for i := from; i < from+n; i++ {
		c, err := l.Append(context.Background(), events.Record{
			EventID: fmt.Sprintf("%s-%d", name, i),
			Name:    name,
			Time:    time.Now(),
			Data:    json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)),
		})
		if err != nil {
			t.Fatalf("Append: %v", err)
		}
		if c == "" {
			t.Fatal("Append returned an empty cursor")
		}
		cursors = append(cursors, c)
	}
	return cursors
}

// read reads or fails the test.
func read(t *testing.T, l events.Log, req events.ReadRequest) events.ReadResult {
	t.Helper()
	r, err := l.Read(context.Background(), req)
	if err != nil {
		t.Fatalf("Read(%+v): %v", req, err)
	}
	return r
}

// ids returns the event ids of records.
func ids(recs []events.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.EventID)
	}
	return out
}

// wantIDs fails the test unless recs have the event ids want, in order.
func wantIDs(t *testing.T, recs []events.Record, want ...string) {
	t.Helper()
	got := ids(recs)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("records %v, want %v", got, want)
	}
}

func readFromNow(t *testing.T, a, _ events.Log) {
	appendN(t, a, "x", 0, 2)
	r := read(t, a, events.ReadRequest{Name: "x", Max: 10})
	if len(r.Records) != 0 || r.Truncated || r.More || r.Next == "" {
		t.Fatalf("read from now = %+v, want no records and the head", r)
	}
	appendN(t, a, "x", 2, 1)
	r = read(t, a, events.ReadRequest{Name: "x", After: r.Next, Max: 10})
	wantIDs(t, r.Records, "x-2")
	// A type never appended to has a head too.
	if r := read(t, a, events.ReadRequest{Name: "never", Max: 1}); r.Next == "" {
		t.Fatal("no head for an empty log")
	}
}

func inOrder(t *testing.T, a, _ events.Log) {
	head := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	cursors := appendN(t, a, "x", 0, 3)
	r := read(t, a, events.ReadRequest{Name: "x", After: head, Max: 10})
	wantIDs(t, r.Records, "x-0", "x-1", "x-2")
	for i, rec := range r.Records {
		if rec.Cursor != cursors[i] {
			t.Errorf("record %d cursor %q, Append returned %q", i, rec.Cursor, cursors[i])
		}
		if rec.Name != "x" || string(rec.Data) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Errorf("record %d = %+v, changed in the log", i, rec)
		}
		if time.Since(rec.Time) > time.Minute || rec.Time.IsZero() {
			t.Errorf("record %d time %v, not the time appended", i, rec.Time)
		}
	}
	if r.Next != cursors[2] || r.More || r.Truncated {
		t.Fatalf("read = next %q more %v truncated %v, want next %q", r.Next, r.More, r.Truncated, cursors[2])
	}
	// Reading after a record's cursor starts after that record.
	r = read(t, a, events.ReadRequest{Name: "x", After: cursors[0], Max: 10})
	wantIDs(t, r.Records, "x-1", "x-2")
	// Nothing after the last one.
	r = read(t, a, events.ReadRequest{Name: "x", After: cursors[2], Max: 10})
	if len(r.Records) != 0 || r.Next == "" {
		t.Fatalf("read after the last record = %+v", r)
	}
}

func maxAndMore(t *testing.T, a, _ events.Log) {
	head := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	appendN(t, a, "x", 0, 5)
	r := read(t, a, events.ReadRequest{Name: "x", After: head, Max: 2})
	wantIDs(t, r.Records, "x-0", "x-1")
	if !r.More {
		t.Fatal("more = false with three records left")
	}
	r = read(t, a, events.ReadRequest{Name: "x", After: r.Next, Max: 3})
	wantIDs(t, r.Records, "x-2", "x-3", "x-4")
	if r.More {
		t.Fatal("more = true at the end")
	}
}

func acrossInstances(t *testing.T, a, b events.Log) {
	head := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	appendN(t, a, "x", 0, 2)
	appendN(t, b, "x", 2, 1)
	r := read(t, b, events.ReadRequest{Name: "x", After: head, Max: 10})
	wantIDs(t, r.Records, "x-0", "x-1", "x-2")
	r2 := read(t, a, events.ReadRequest{Name: "x", After: r.Records[0].Cursor, Max: 10})
	wantIDs(t, r2.Records, "x-1", "x-2")
}

func perType(t *testing.T, a, _ events.Log) {
	hx := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	hy := read(t, a, events.ReadRequest{Name: "y", Max: 1}).Next
	appendN(t, a, "x", 0, 1)
	appendN(t, a, "y", 0, 2)
	appendN(t, a, "x", 1, 1)
	wantIDs(t, read(t, a, events.ReadRequest{Name: "x", After: hx, Max: 10}).Records, "x-0", "x-1")
	wantIDs(t, read(t, a, events.ReadRequest{Name: "y", After: hy, Max: 10}).Records, "y-0", "y-1")
}

func sinceIsAGap(t *testing.T, a, _ events.Log) {
	head := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	old := time.Now().Add(-time.Hour)
	for i, ts := range []time.Time{old, old, time.Now()} {
		if _, err := a.Append(context.Background(), events.Record{EventID: fmt.Sprint(i), Name: "x", Time: ts, Data: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	r := read(t, a, events.ReadRequest{Name: "x", After: head, Since: time.Now().Add(-time.Minute), Max: 10})
	if !r.Truncated || len(r.Records) != 0 {
		t.Fatalf("read past the replay floor = %+v, want a gap and no records", r)
	}
	r = read(t, a, events.ReadRequest{Name: "x", After: r.Next, Max: 10})
	wantIDs(t, r.Records, "2")
	// Without a floor, the same cursor replays everything.
	wantIDs(t, read(t, a, events.ReadRequest{Name: "x", After: head, Max: 10}).Records, "0", "1", "2")
}

func malformedCursor(t *testing.T, a, _ events.Log) {
	for _, c := range []string{"not a cursor", "\x00", "{}"} {
		if _, err := a.Read(context.Background(), events.ReadRequest{Name: "x", After: c, Max: 1}); !errors.Is(err, events.ErrBadCursor) {
			t.Errorf("Read after %q: %v, want ErrBadCursor", c, err)
		}
	}
}

func changedOnAppend(t *testing.T, a, b events.Log) {
	ch := a.Changed("x")
	appendN(t, b, "x", 0, 1)
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("Changed was not closed by an Append on the other instance")
	}
}

func concurrentAppends(t *testing.T, a, b events.Log) {
	head := read(t, a, events.ReadRequest{Name: "x", Max: 1}).Next
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		l := a
		if w%2 == 1 {
			l = b
		}
		wg.Go(func() {
			for i := range each {
				if _, err := l.Append(context.Background(), events.Record{EventID: fmt.Sprintf("%d-%d", w, i), Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	last := map[int]int{}
	after := head
	for range writers * each {
		r := read(t, a, events.ReadRequest{Name: "x", After: after, Max: 7})
		for _, rec := range r.Records {
			if seen[rec.EventID] {
				t.Fatalf("record %s read twice", rec.EventID)
			}
			seen[rec.EventID] = true
			var w, i int
			fmt.Sscanf(rec.EventID, "%d-%d", &w, &i)
			want := 0
			if n, ok := last[w]; ok {
				want = n + 1
			}
			if i != want {
				t.Fatalf("writer %d: record %d where %d was due: one writer's appends out of order", w, i, want)
			}
			last[w] = i
		}
		after = r.Next
		if !r.More {
			break
		}
	}
	if len(seen) != writers*each {
		t.Fatalf("read %d records, appended %d", len(seen), writers*each)
	}
}
