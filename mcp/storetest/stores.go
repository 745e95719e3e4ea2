package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestSessionStore checks an mcp.SessionStore: a saved state loads back
// equal, unknown and deleted ids report mcp.ErrSessionNotFound, Save
// replaces, and a session expires after its TTL unless loaded.
func TestSessionStore(t *testing.T, newStore func(t *testing.T) mcp.SessionStore, clock Clock) {
	ctx := context.Background()
	clock = clockOr(clock)
	state := &mcp.SessionState{
		ProtocolVersion:    "2025-11-25",
		ClientInfo:         &mcp.Implementation{Name: "c", Version: "1"},
		ClientCapabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{}},
		LogLevel:           "debug",
		Subscriptions:      []string{"file:///a", "file:///b"},
		Owner:              "https://issuer.example\x00alice\x00client-1",
	}
	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		if err := s.Save(ctx, "S1", state, time.Minute); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(ctx, "S1", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, state) {
			t.Fatalf("Load = %+v, want %+v", got, state)
		}
		changed := *state
		changed.LogLevel, changed.Subscriptions = "error", nil
		if err := s.Save(ctx, "S1", &changed, time.Minute); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Load(ctx, "S1", time.Minute); got == nil || got.LogLevel != "error" || len(got.Subscriptions) != 0 {
			t.Fatalf("Load after replace = %+v", got)
		}
	})
	t.Run("NotFound", func(t *testing.T) {
		s := newStore(t)
		for _, id := range []string{"nope", "S1*", "S1:events", ""} {
			if _, err := s.Load(ctx, id, time.Minute); !errors.Is(err, mcp.ErrSessionNotFound) {
				t.Fatalf("Load(%q) = %v, want ErrSessionNotFound", id, err)
			}
		}
		if err := s.Delete(ctx, "nope"); err != nil {
			t.Fatalf("Delete of an unknown id: %v", err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		s := newStore(t)
		if err := s.Save(ctx, "S2", state, time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, "S2"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(ctx, "S2", time.Minute); !errors.Is(err, mcp.ErrSessionNotFound) {
			t.Fatalf("Load after Delete = %v, want ErrSessionNotFound", err)
		}
	})
	t.Run("Expiry", func(t *testing.T) {
		s := newStore(t)
		ttl := 300 * time.Millisecond
		if err := s.Save(ctx, "S3", state, ttl); err != nil {
			t.Fatal(err)
		}
		clock.Advance(t, ttl/2)
		if _, err := s.Load(ctx, "S3", ttl); err != nil { // restarts the TTL
			t.Fatalf("Load before expiry: %v", err)
		}
		clock.Advance(t, ttl*2/3)
		if _, err := s.Load(ctx, "S3", ttl); err != nil {
			t.Fatalf("Load within the restarted TTL: %v", err)
		}
		clock.Advance(t, ttl*2)
		if _, err := s.Load(ctx, "S3", ttl); !errors.Is(err, mcp.ErrSessionNotFound) {
			t.Fatalf("Load after expiry = %v, want ErrSessionNotFound", err)
		}
	})
}

// TestEventStore checks an mcp.EventStore: events replay in order after
// any index, streams of one session and of different sessions are apart
// (an event of another session is never replayed), unknown streams report
// mcp.ErrUnknownStream, and SessionClosed drops a session's streams only.
func TestEventStore(t *testing.T, newStore func(t *testing.T) mcp.EventStore) {
	ctx := context.Background()
	collect := func(t *testing.T, s mcp.EventStore, sess, stream string, index int) ([]string, error) {
		t.Helper()
		var out []string
		for data, err := range s.After(ctx, sess, stream, index) {
			if err != nil {
				return out, err
			}
			out = append(out, string(data))
		}
		return out, nil
	}
	t.Run("ReplayAfter", func(t *testing.T) {
		s := newStore(t)
		for i := 1; i <= 5; i++ {
			if err := s.Append(ctx, "A", "1", fmt.Appendf(nil, `{"n":%d}`, i)); err != nil {
				t.Fatal(err)
			}
			if err := s.Append(ctx, "A", "2", fmt.Appendf(nil, `{"m":%d}`, i)); err != nil {
				t.Fatal(err)
			}
		}
		for index := 0; index <= 5; index++ {
			got, err := collect(t, s, "A", "1", index)
			if err != nil {
				t.Fatalf("After(%d): %v", index, err)
			}
			var want []string
			for i := index + 1; i <= 5; i++ {
				want = append(want, fmt.Sprintf(`{"n":%d}`, i))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("After(%d) = %v, want %v", index, got, want)
			}
		}
	})
	t.Run("SessionsApart", func(t *testing.T) {
		s := newStore(t)
		if err := s.Append(ctx, "A", "1", []byte(`"secret of A"`)); err != nil {
			t.Fatal(err)
		}
		if got, err := collect(t, s, "B", "1", 0); !errors.Is(err, mcp.ErrUnknownStream) || len(got) != 0 {
			t.Fatalf("After on session B = %v, %v; want ErrUnknownStream and nothing", got, err)
		}
		if _, err := collect(t, s, "A", "9", 0); !errors.Is(err, mcp.ErrUnknownStream) {
			t.Fatalf("After on an unknown stream = %v, want ErrUnknownStream", err)
		}
	})
	t.Run("SessionClosed", func(t *testing.T) {
		s := newStore(t)
		for _, sess := range []string{"A", "B"} {
			if err := s.Append(ctx, sess, "1", []byte(`1`)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SessionClosed(ctx, "A"); err != nil {
			t.Fatal(err)
		}
		if _, err := collect(t, s, "A", "1", 0); !errors.Is(err, mcp.ErrUnknownStream) {
			t.Fatalf("After on a closed session = %v, want ErrUnknownStream", err)
		}
		if got, err := collect(t, s, "B", "1", 0); err != nil || len(got) != 1 {
			t.Fatalf("After on another session = %v, %v", got, err)
		}
	})
}

// TestTaskStore checks an mcp.TaskStore: Put then Get returns the state,
// Put replaces, unknown ids report mcp.ErrTaskNotFound, and a task is
// forgotten after its expiry.
func TestTaskStore(t *testing.T, newStore func(t *testing.T) mcp.TaskStore, clock Clock) {
	ctx := context.Background()
	clock = clockOr(clock)
	task := func(id string, status mcp.TaskStatus) *mcp.DetailedTask {
		return &mcp.DetailedTask{TaskID: id, Status: status, CreatedAt: "2026-11-26T00:00:00Z"}
	}
	t.Run("PutGet", func(t *testing.T) {
		s := newStore(t)
		if err := s.Put(ctx, task("t1", mcp.TaskStatusWorking), time.Time{}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "t1")
		if err != nil || got.TaskID != "t1" || got.Status != mcp.TaskStatusWorking {
			t.Fatalf("Get = %+v, %v", got, err)
		}
		if err := s.Put(ctx, task("t1", mcp.TaskStatusCompleted), time.Time{}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Get(ctx, "t1"); err != nil || got.Status != mcp.TaskStatusCompleted {
			t.Fatalf("Get after replace = %+v, %v", got, err)
		}
		if _, err := s.Get(ctx, "t2"); !errors.Is(err, mcp.ErrTaskNotFound) {
			t.Fatalf("Get of an unknown task = %v, want ErrTaskNotFound", err)
		}
	})
	t.Run("Expiry", func(t *testing.T) {
		s := newStore(t)
		if err := s.Put(ctx, task("t3", mcp.TaskStatusCompleted), time.Now().Add(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "t3"); err != nil {
			t.Fatalf("Get before expiry: %v", err)
		}
		clock.Advance(t, 400*time.Millisecond)
		if _, err := s.Get(ctx, "t3"); !errors.Is(err, mcp.ErrTaskNotFound) {
			t.Fatalf("Get after expiry = %v, want ErrTaskNotFound", err)
		}
	})
}
