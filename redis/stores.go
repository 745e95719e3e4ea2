package redis

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A SessionStore is an mcp.SessionStore on Redis hashes
// (KeyPrefix + "session:" + id, field "state") that expire after their
// TTL without a Load.
type SessionStore struct{ b *Backend }

// SessionStore returns the backend's session store.
func (b *Backend) SessionStore() *SessionStore { return &SessionStore{b} }

var _ mcp.SessionStore = (*SessionStore)(nil)

// Save creates or replaces the state of session id.
func (s *SessionStore) Save(ctx context.Context, id string, state *mcp.SessionState, ttl time.Duration) error {
	if !validID(id) {
		return errBadID
	}
	data, err := strictjson.Marshal(state)
	if err != nil {
		return err
	}
	key := s.b.key("session", id)
	_, err = s.b.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.HSet(ctx, key, "state", data)
		expire(ctx, p, key, ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("mcp/redis: saving session: %w", err)
	}
	return nil
}

// Load returns the state of session id and restarts its TTL.
func (s *SessionStore) Load(ctx context.Context, id string, ttl time.Duration) (*mcp.SessionState, error) {
	if !validID(id) {
		return nil, mcp.ErrSessionNotFound
	}
	key := s.b.key("session", id)
	var get *goredis.StringCmd
	_, err := s.b.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		get = p.HGet(ctx, key, "state")
		expire(ctx, p, key, ttl)
		return nil
	})
	if errors.Is(err, goredis.Nil) || errors.Is(get.Err(), goredis.Nil) {
		return nil, mcp.ErrSessionNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("mcp/redis: loading session: %w", err)
	}
	data, _ := get.Bytes()
	if len(data) > s.b.opts.MaxMessageBytes {
		return nil, fmt.Errorf("mcp/redis: session state of %d bytes is over the limit", len(data))
	}
	var st mcp.SessionState
	if err := strictjson.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("mcp/redis: decoding session: %w", err)
	}
	return &st, nil
}

// Delete removes session id.
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	if !validID(id) {
		return nil
	}
	if err := s.b.client.Del(ctx, s.b.key("session", id)).Err(); err != nil {
		return fmt.Errorf("mcp/redis: deleting session: %w", err)
	}
	return nil
}

func expire(ctx context.Context, p goredis.Pipeliner, key string, ttl time.Duration) {
	if ttl > 0 {
		p.PExpire(ctx, key, ttl)
	} else {
		p.Persist(ctx, key)
	}
}

// A TaskStore is an mcp.TaskStore on Redis hashes
// (KeyPrefix + "task:" + id, field "task") that expire with their task.
type TaskStore struct{ b *Backend }

// TaskStore returns the backend's task store.
func (b *Backend) TaskStore() *TaskStore { return &TaskStore{b} }

var _ mcp.TaskStore = (*TaskStore)(nil)

// Put creates or replaces the state of task.TaskID.
func (s *TaskStore) Put(ctx context.Context, task *mcp.DetailedTask, expires time.Time) error {
	if !validID(task.TaskID) {
		return errBadID
	}
	data, err := strictjson.Marshal(task)
	if err != nil {
		return err
	}
	key := s.b.key("task", task.TaskID)
	var ttl time.Duration
	if !expires.IsZero() {
		if ttl = time.Until(expires); ttl <= 0 {
			return s.b.client.Del(ctx, key).Err()
		}
	}
	_, err = s.b.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.HSet(ctx, key, "task", data)
		expire(ctx, p, key, ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("mcp/redis: storing task: %w", err)
	}
	return nil
}

// Get returns the state of a task.
func (s *TaskStore) Get(ctx context.Context, taskID string) (*mcp.DetailedTask, error) {
	if !validID(taskID) {
		return nil, mcp.ErrTaskNotFound
	}
	data, err := s.b.client.HGet(ctx, s.b.key("task", taskID), "task").Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, mcp.ErrTaskNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("mcp/redis: loading task: %w", err)
	}
	if len(data) > s.b.opts.MaxMessageBytes {
		return nil, fmt.Errorf("mcp/redis: task of %d bytes is over the limit", len(data))
	}
	var t mcp.DetailedTask
	if err := strictjson.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("mcp/redis: decoding task: %w", err)
	}
	return &t, nil
}

// An EventStore is an mcp.EventStore on Redis Streams: one stream per SSE
// stream (KeyPrefix + "events:{" + session + "}:" + stream) whose entry ids
// are the events' positions (0-1, 0-2, ..., numbered by Redis: XADD with
// the id "0-*", which needs Redis 7), trimmed to about
// MaxEventsPerStream entries, and a set per session naming its keys
// (KeyPrefix + "events:{" + session + "}"). A session's keys expire
// EventTTL after its last event. The session id in braces is a Redis
// Cluster hash tag: a session's keys are in one slot, so that they are
// dropped with one DEL on a cluster too.
type EventStore struct{ b *Backend }

// EventStore returns the backend's event store.
func (b *Backend) EventStore() *EventStore { return &EventStore{b} }

var _ mcp.EventStore = (*EventStore)(nil)

// Append queues data as the next event of the stream and returns: the
// backend writes queued events in order, several in one round trip, and
// logs the failures. It fails if too many events
// wait already.
func (s *EventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	if !validID(sessionID) || !validID(streamID) {
		return errBadID
	}
	return s.b.events.push(s.b.streamKey(sessionID, streamID), s.b.streamSet(sessionID), data)
}

// After returns the events of the stream that follow its first index
// events.
func (s *EventStore) After(ctx context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		if !validID(sessionID) || !validID(streamID) || index < 0 {
			yield(nil, fmt.Errorf("%w: session %q stream %q", mcp.ErrUnknownStream, sessionID, streamID))
			return
		}
		s.b.events.sync() // this process's appends first
		stream := s.b.streamKey(sessionID, streamID)
		var first, rest *goredis.XMessageSliceCmd
		_, err := s.b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			first = p.XRangeN(ctx, stream, "-", "+", 1)
			rest = p.XRange(ctx, stream, "0-"+strconv.Itoa(index+1), "+")
			return nil
		})
		if err != nil {
			yield(nil, fmt.Errorf("mcp/redis: reading events: %w", err))
			return
		}
		if len(first.Val()) == 0 {
			yield(nil, fmt.Errorf("%w: session %q stream %q", mcp.ErrUnknownStream, sessionID, streamID))
			return
		}
		if oldest := entrySeq(first.Val()[0].ID); oldest > index+1 {
			yield(nil, fmt.Errorf("%w: stream %q from event %d (oldest kept: %d)", mcp.ErrEventsPurged, streamID, index+1, oldest))
			return
		}
		for _, m := range rest.Val() {
			d, _ := m.Values["d"].(string)
			if len(d) > s.b.opts.MaxMessageBytes {
				yield(nil, fmt.Errorf("mcp/redis: event of %d bytes is over the limit", len(d)))
				return
			}
			if !yield([]byte(d), nil) {
				return
			}
		}
	}
}

// streamKey returns the key of an SSE stream's events.
func (b *Backend) streamKey(sessionID, streamID string) string {
	return b.key("events", "{"+sessionID+"}", streamID)
}

// streamSet returns the key of the set naming a session's streams.
func (b *Backend) streamSet(sessionID string) string {
	return b.key("events", "{"+sessionID+"}")
}

// entrySeq returns the sequence part of an entry id "0-N".
func entrySeq(id string) int {
	_, seq, _ := strings.Cut(id, "-")
	n, _ := strconv.Atoi(seq)
	return n
}

// SessionClosed drops every stream of the session.
func (s *EventStore) SessionClosed(ctx context.Context, sessionID string) error {
	if !validID(sessionID) {
		return nil
	}
	s.b.events.sync() // so that no queued event brings a stream back
	set := s.b.streamSet(sessionID)
	keys, err := s.b.client.SMembers(ctx, set).Result()
	if err != nil {
		return fmt.Errorf("mcp/redis: dropping events: %w", err)
	}
	prefix := set + ":"
	del := []string{set}
	for _, k := range keys {
		if strings.HasPrefix(k, prefix) { // only this session's keys
			del = append(del, k)
		}
	}
	if err := s.b.client.Del(ctx, del...).Err(); err != nil {
		return fmt.Errorf("mcp/redis: dropping events: %w", err)
	}
	return nil
}
