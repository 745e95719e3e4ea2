package redis_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/eventstest"
	"github.com/gomcp/sdk/redis"
)

// newEventLog returns an EventLog on its own backend and client of addr
// (one server instance), closed with t.
func newEventLog(t testing.TB, addr string, opts *redis.EventLogOptions) *redis.EventLog {
	t.Helper()
	l := newBackend(t, addr).EventLog(opts)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// TestEventLogContract runs the contract tests of events.Log on two
// EventLogs, each with its own Redis client, on one Redis (miniredis, or
// the one GOMCP_REDIS_ADDR names).
func TestEventLogContract(t *testing.T) {
	eventstest.Run(t, func(t *testing.T) (events.Log, events.Log) {
		addr, _ := server(t)
		return newEventLog(t, addr, nil), newEventLog(t, addr, nil)
	})
}

// appendRecord appends a record of name with data {"n": n}.
func appendRecord(t *testing.T, l events.Log, name string, n int, at time.Time) string {
	t.Helper()
	c, err := l.Append(t.Context(), events.Record{EventID: fmt.Sprint(n), Name: name, Time: at, Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))})
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return c
}

// readIDs reads and returns the result and its records' event ids.
func readIDs(t *testing.T, l events.Log, req events.ReadRequest) (events.ReadResult, string) {
	t.Helper()
	r, err := l.Read(t.Context(), req)
	if err != nil {
		t.Fatalf("Read(%+v): %v", req, err)
	}
	var ids []string
	for _, rec := range r.Records {
		ids = append(ids, rec.EventID)
	}
	return r, fmt.Sprint(ids)
}

// TestEventLogWakesOtherInstance: an Append on one instance closes the
// Changed channel a reader on another took before its read found nothing,
// and only that type's; the reader then reads the record.
func TestEventLogWakesOtherInstance(t *testing.T) {
	addr, _ := server(t)
	writer, reader := newEventLog(t, addr, nil), newEventLog(t, addr, nil)
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Changed was not closed", what)
		}
	}
	// The first channel is closed once Redis has confirmed the
	// subscription: from then on, publishes reach the reader.
	wait(reader.Changed("x"), "subscription confirmed")

	chX, chY := reader.Changed("x"), reader.Changed("y")
	r, ids := readIDs(t, reader, events.ReadRequest{Name: "x", Max: 10})
	if ids != "[]" {
		t.Fatalf("read from now: %s", ids)
	}
	appendRecord(t, writer, "x", 1, time.Now())
	wait(chX, "append on the other instance")
	select {
	case <-chY:
		t.Fatal("an append of x closed the channel of y")
	default:
	}
	if _, ids := readIDs(t, reader, events.ReadRequest{Name: "x", After: r.Next, Max: 10}); ids != "[1]" {
		t.Fatalf("after the wake: %s, want [1]", ids)
	}
}

// TestEventLogCursorAcrossInstances: a cursor one instance returned
// resumes on another, and one a client kept resumes on a new instance
// (a restart: a new client and EventLog on the same Redis).
func TestEventLogCursorAcrossInstances(t *testing.T) {
	addr, _ := server(t)
	a := newEventLog(t, addr, nil)
	c1 := appendRecord(t, a, "x", 1, time.Now())
	appendRecord(t, a, "x", 2, time.Now())
	restarted := newEventLog(t, addr, nil)
	if r, ids := readIDs(t, restarted, events.ReadRequest{Name: "x", After: c1, Max: 10}); ids != "[2]" || r.Truncated {
		t.Fatalf("read after %q on another instance = %s truncated %v, want [2]", c1, ids, r.Truncated)
	}
}

// TestEventLogTrimmedIsAGap: records past MaxRecords are trimmed; a
// cursor before them reads as a gap whose Next leads to the oldest record
// kept.
func TestEventLogTrimmedIsAGap(t *testing.T) {
	addr, _ := server(t)
	l := newEventLog(t, addr, &redis.EventLogOptions{MaxRecords: 3})
	head := appendRecord(t, l, "x", 0, time.Now())
	for i := 1; i <= 5; i++ {
		appendRecord(t, l, "x", i, time.Now())
	}
	gap, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: head, Max: 10})
	if !gap.Truncated || ids != "[]" {
		t.Fatalf("read from before trimmed records = %+v, want a gap", gap)
	}
	if r, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: gap.Next, Max: 10}); ids != "[3 4 5]" || r.Truncated {
		t.Fatalf("after the gap: %s truncated %v, want [3 4 5]", ids, r.Truncated)
	}
}

// TestEventLogMaxAge: records older than MaxAge read as a gap.
func TestEventLogMaxAge(t *testing.T) {
	addr, _ := server(t)
	now := time.Now()
	l := newEventLog(t, addr, &redis.EventLogOptions{MaxAge: time.Hour, Now: func() time.Time { return now }})
	head, _ := readIDs(t, l, events.ReadRequest{Name: "x", Max: 1})
	appendRecord(t, l, "x", 1, now.Add(-2*time.Hour))
	appendRecord(t, l, "x", 2, now)
	gap, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: head.Next, Max: 10})
	if !gap.Truncated || ids != "[]" {
		t.Fatalf("read past a record older than MaxAge = %+v, want a gap", gap)
	}
	if _, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: gap.Next, Max: 10}); ids != "[2]" {
		t.Fatalf("after the gap: %s, want [2]", ids)
	}
}

// TestEventLogForeignCursors: a well-formed cursor the log did not make
// (another type's, a MemoryLog's, one of a log since deleted, one past the
// head) reads as a gap at the head; a malformed one is ErrBadCursor.
func TestEventLogForeignCursors(t *testing.T) {
	addr, _ := server(t)
	l := newEventLog(t, addr, nil)
	ctx := t.Context()
	yCursor := appendRecord(t, l, "y", 1, time.Now())
	xHead, _ := readIDs(t, l, events.ReadRequest{Name: "x", Max: 1})
	appendRecord(t, l, "x", 1, time.Now())
	memCursor, err := events.NewMemoryLog(nil).Append(ctx, events.Record{EventID: "m", Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	epoch, _, _ := cutCursor(xHead.Next)
	for _, c := range []string{yCursor, memCursor, epoch + ".99999999999999-0", "0123456789abcdef.0-0"} {
		r, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: c, Max: 10})
		if !r.Truncated || ids != "[]" {
			t.Errorf("read after %q = %+v, want a gap", c, r)
			continue
		}
		if r2, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: r.Next, Max: 10}); ids != "[]" || r2.Truncated {
			t.Errorf("the gap's Next %q is not the head: %s follow", r.Next, ids)
		}
	}
	// The log deleted (expired) and made again: its old cursors are gaps.
	client := newClient(t, addr)
	defer client.Close()
	if err := client.Del(ctx, "test:eventlog:{x}", "test:eventlog:{x}:meta").Err(); err != nil {
		t.Fatal(err)
	}
	appendRecord(t, l, "x", 2, time.Now())
	if r, _ := readIDs(t, l, events.ReadRequest{Name: "x", After: xHead.Next, Max: 10}); !r.Truncated {
		t.Errorf("a cursor of a deleted log = %+v, want a gap", r)
	}
	for _, c := range []string{"", ".", "x.", ".1-1", "a.1-", "a.-1", "a.1-1-1", "a b.1-1", "a.+1", "a.18446744073709551616-0", string(make([]byte, 200))} {
		if c == "" {
			continue
		}
		if _, err := l.Read(ctx, events.ReadRequest{Name: "x", After: c, Max: 1}); !errors.Is(err, events.ErrBadCursor) {
			t.Errorf("Read after %q: %v, want ErrBadCursor", c, err)
		}
	}
}

// cutCursor splits a cursor at its first dot.
func cutCursor(c string) (epoch, pos string, ok bool) {
	for i := 0; i < len(c); i++ {
		if c[i] == '.' {
			return c[:i], c[i+1:], true
		}
	}
	return c, "", false
}

// TestEventLogBadEntries: an entry another program wrote to the stream is
// skipped as a gap, and the records around it are delivered.
func TestEventLogBadEntries(t *testing.T) {
	addr, _ := server(t)
	l := newEventLog(t, addr, nil)
	ctx := t.Context()
	head := appendRecord(t, l, "x", 1, time.Now())
	client := newClient(t, addr)
	defer client.Close()
	for _, values := range [][]any{
		{"e", "2", "t", "yesterday", "d", "{}"},
		{"e", "3", "t", time.Now().Format(time.RFC3339Nano), "d", "[1]"},
		{"e", "4", "t", time.Now().Format(time.RFC3339Nano), "d", `{"a":1,"a":2}`},
		{"e", "5", "t", time.Now().Format(time.RFC3339Nano), "d", "{}", "x", "y"},
	} {
		if err := client.XAdd(ctx, &goredis.XAddArgs{Stream: "test:eventlog:{x}", Values: values}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	appendRecord(t, l, "x", 6, time.Now())
	r, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: head, Max: 10})
	if !r.Truncated || ids != "[]" {
		t.Fatalf("read at malformed entries = %+v %s, want a gap", r, ids)
	}
	if _, ids := readIDs(t, l, events.ReadRequest{Name: "x", After: r.Next, Max: 10}); ids != "[6]" {
		t.Fatalf("after the gap: %s, want [6]", ids)
	}
	// Append refuses what Read would not decode.
	for _, rec := range []events.Record{
		{EventID: "a", Name: "x", Time: time.Now(), Data: json.RawMessage(`[1]`)},
		{EventID: "", Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)},
		{EventID: "a", Name: "x{y}", Time: time.Now(), Data: json.RawMessage(`{}`)},
		{EventID: "a", Name: "x", Time: time.Now(), Data: json.RawMessage(`{"big":"` + string(make([]byte, 100)) + `"}`)},
	} {
		small := newEventLog(t, addr, &redis.EventLogOptions{MaxRecordBytes: 100})
		if _, err := small.Append(ctx, rec); err == nil {
			t.Errorf("Append(%+v) succeeded", rec)
		}
	}
}

// FuzzEventLogCursor: no cursor makes a read panic; one the log did not
// make is a malformed-cursor error or a gap.
func FuzzEventLogCursor(f *testing.F) {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(m.Close)
	l := newEventLog(f, m.Addr(), nil)
	ctx := context.Background()
	c, err := l.Append(ctx, events.Record{EventID: "a", Name: "x", Time: time.Now(), Data: json.RawMessage(`{}`)})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{c, "", "abc.5", "abc.18446744073709551615-18446744073709551615", ".1-1", "a.0-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cursor string) {
		r, err := l.Read(ctx, events.ReadRequest{Name: "x", After: cursor, Max: 5})
		switch {
		case err != nil && !errors.Is(err, events.ErrBadCursor):
			t.Fatalf("read after %q: %v", cursor, err)
		case err == nil && r.Next == "":
			t.Fatalf("read after %q: no Next", cursor)
		}
	})
}

// TestEventLogWakesAfterReconnect: when the pub/sub connection is lost
// (appends published meanwhile are missed), the resubscription wakes every
// reader, so each reads again; an Append after it wakes them as before.
func TestEventLogWakesAfterReconnect(t *testing.T) {
	m := miniredis.RunT(t)
	l := newEventLog(t, m.Addr(), nil)
	writer := newEventLog(t, m.Addr(), nil)
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Changed was not closed", what)
		}
	}
	wait(l.Changed("x"), "subscription confirmed")
	ch := l.Changed("x")
	m.Close()
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	wait(ch, "resubscribed after a lost connection")
	// Settled again: a wake now comes from an append.
	for {
		ch = l.Changed("x")
		if m.PubSubNumSub("test:eventlog")["test:eventlog"] == 1 {
			break
		}
		wait(ch, "resubscription")
	}
	appendRecord(t, writer, "x", 1, time.Now())
	wait(ch, "append after the reconnection")
}

// TestEventLogManyReaders: 200 readers of one instance wait, as push
// streams do, after the head; one Append on another instance wakes them
// and each reads the record exactly once. Their reads after the wake are
// coalesced; the Redis commands they cost are logged (miniredis).
func TestEventLogManyReaders(t *testing.T) {
	addr, m := server(t)
	reader, writer := newEventLog(t, addr, nil), newEventLog(t, addr, nil)
	select {
	case <-reader.Changed("x"): // the subscription is confirmed
	case <-time.After(10 * time.Second):
		t.Fatal("subscription not confirmed")
	}
	head, _ := readIDs(t, reader, events.ReadRequest{Name: "x", Max: 10})
	const readers = 200
	var ready, finished sync.WaitGroup
	ready.Add(readers)
	errs := make(chan error, readers)
	for range readers {
		finished.Go(func() {
			first := true
			for {
				ch := reader.Changed("x")
				r, err := reader.Read(t.Context(), events.ReadRequest{Name: "x", After: head.Next, Max: 10})
				if first {
					ready.Done()
					first = false
				}
				switch {
				case err != nil:
					errs <- err
					return
				case len(r.Records) == 1 && r.Records[0].EventID == "1":
					return
				case len(r.Records) != 0 || r.Truncated:
					errs <- fmt.Errorf("read %+v", r)
					return
				}
				select {
				case <-ch:
				case <-time.After(10 * time.Second):
					errs <- errors.New("not woken by the append")
					return
				}
			}
		})
	}
	ready.Wait()
	var before int
	if m != nil {
		before = m.CommandCount()
	}
	appendRecord(t, writer, "x", 1, time.Now())
	finished.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if m != nil {
		t.Logf("one append and the reads of %d woken readers: %d Redis commands", readers, m.CommandCount()-before)
	}
}

// TestBackendCloseClosesEventLogs: Backend.Close closes the EventLogs it
// handed out, their subscriptions made or not (the channels their Changed
// handed out are closed when it returns), leaves alone one closed already,
// and an EventLog it hands out afterwards is closed already; Append and
// Read go on working, on the client.
func TestBackendCloseClosesEventLogs(t *testing.T) {
	addr, _ := server(t)
	b := newBackend(t, addr)
	subscribed, idle, closed := b.EventLog(nil), b.EventLog(nil), b.EventLog(nil)
	select { // the first Changed is closed once Redis confirms the subscription
	case <-subscribed.Changed("x"):
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription was not confirmed")
	}
	waiting := subscribed.Changed("x")
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Backend.Close: %v", err)
	}
	select {
	case <-waiting:
	default:
		t.Fatal("Backend.Close returned with a Changed channel of its EventLog open")
	}
	for _, l := range []*redis.EventLog{subscribed, idle, closed, b.EventLog(nil)} {
		if err := l.Close(); err != nil {
			t.Errorf("EventLog.Close after Backend.Close: %v", err)
		}
	}
	late := b.EventLog(nil)
	head, _ := readIDs(t, late, events.ReadRequest{Name: "y", Max: 10})
	appendRecord(t, late, "y", 1, time.Now())
	if _, ids := readIDs(t, late, events.ReadRequest{Name: "y", After: head.Next, Max: 10}); ids != "[1]" {
		t.Errorf("Read after Backend.Close: %s, want [1]", ids)
	}
}
