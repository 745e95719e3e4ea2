package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/strictjson"
)

// EventLogOptions configure an EventLog; nil means defaults.
type EventLogOptions struct {
	// MaxRecords is how many records of each event type are kept; the
	// oldest are trimmed at each Append (default
	// events.DefaultMaxRecords).
	MaxRecords int64
	// MaxAge is how long a record is delivered: an older one reads as a
	// gap, and a type's keys expire MaxAge after its last Append (default
	// events.DefaultMaxAge).
	MaxAge time.Duration
	// MaxRecordBytes bounds a record as stored (its event id, time and
	// data); Append refuses a larger one and Read reports one it finds as
	// a gap (default the Backend's MaxMessageBytes).
	MaxRecordBytes int
	// Now is the clock of MaxAge (default time.Now).
	Now func() time.Time
}

// An EventLog is an events.Log on Redis, for several instances of a
// server that share their event types' occurrences: each event type has a
// stream (KeyPrefix + "eventlog:{" + name + "}") of its records, entry ids
// made by Redis, and a hash (the same key + ":meta") holding the log's
// epoch, its last id and the last id trimmed away; both keys are in one
// hash slot (on a Redis Cluster, a KeyPrefix with braces would move the
// hash tag: keep it without). An Append is one Lua script (add, trim, note the trim,
// restart both keys' TTL, publish the name on KeyPrefix + "eventlog"), so
// that a trim is always recorded and a publish always follows its record.
//
// Cursors ("<epoch>.<entry id>") are meaningful to every instance. The
// epoch is made by the first Append, or by the first Read of a type never
// appended to (which writes the meta hash, expiring after MaxAge), so that
// even an empty log's head is a cursor of that log alone. A read
// after a cursor whose records were trimmed, or after one of another
// epoch (the log expired or was deleted and made again, another Redis, a
// MemoryLog's cursor), is Truncated, with Next just before the oldest
// record kept, or at the head for another epoch. The replay floor Since,
// and MaxAge, apply to the records' times; the leading records older than
// the floor are skipped as a gap. A stored entry that does not decode
// (written by something else) is skipped as a gap and logged.
//
// Changed is served by a subscription to KeyPrefix + "eventlog", on a
// pub/sub connection of the EventLog's own, made at the first Changed:
// every Append's publish closes the channels of its type. Each time Redis
// confirms the subscription (first, and after every reconnection, when
// publishes may have been missed) every channel handed out is closed, so
// a reader reads again; no Append between a reader's Changed and its read
// is missed. Identical reads made at once on one instance (the push
// streams an Append wakes) share one round trip.
type EventLog struct {
	b      *Backend
	opts   EventLogOptions
	notify string // the channel of appends

	mu     sync.Mutex
	ps     *goredis.PubSub
	done   chan struct{}            // closed when the listener ends
	waits  map[string]chan struct{} // by event type
	reads  map[readKey]*readCall    // coalesced reads in flight
	closed bool
}

var _ events.Log = (*EventLog)(nil)

// EventLog returns an events.Log on the backend's Redis. Close it when
// done with it, or let Backend.Close close it: either ends the EventLog's
// pub/sub connection. An EventLog made after Backend.Close is closed
// already.
func (b *Backend) EventLog(opts *EventLogOptions) *EventLog {
	l := &EventLog{b: b, notify: b.key("eventlog"), waits: map[string]chan struct{}{}, reads: map[readKey]*readCall{}}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.MaxRecords <= 0 {
		l.opts.MaxRecords = events.DefaultMaxRecords
	}
	if l.opts.MaxAge <= 0 {
		l.opts.MaxAge = events.DefaultMaxAge
	}
	if l.opts.MaxRecordBytes <= 0 {
		l.opts.MaxRecordBytes = b.opts.MaxMessageBytes
	}
	if l.opts.Now == nil {
		l.opts.Now = time.Now
	}
	l.closed = !b.addLog(l)
	return l
}

// maxNameBytes bounds an event type's name in a key.
const maxNameBytes = 256

// maxReadRecords bounds the records one Read returns (More tells the
// rest), and so the entries one round trip fetches.
const maxReadRecords = 1000

// maxReadPages bounds the round trips of one Read that skips records
// older than its floor; past them the Read reports the gap so far.
const maxReadPages = 16

// errBadName reports an event type name that cannot name a key.
var errBadName = errors.New("mcp/redis: invalid event type name")

// keys returns the stream and meta keys of name's log: one hash slot
// (the name is the hash tag, so it may not hold braces).
func (l *EventLog) keys(name string) (stream, meta string, err error) {
	if name == "" || len(name) > maxNameBytes || !utf8.ValidString(name) {
		return "", "", fmt.Errorf("%w: %q", errBadName, name)
	}
	for _, c := range name {
		if c == '{' || c == '}' || c < ' ' || c == 0x7f {
			return "", "", fmt.Errorf("%w: %q", errBadName, name)
		}
	}
	stream = l.b.key("eventlog", "{"+name+"}")
	return stream, stream + ":meta", nil
}

// newEpoch returns a random epoch.
func newEpoch() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// appendScript adds a record and keeps the log's bookkeeping, atomically.
// KEYS: stream, meta. ARGV: epoch if new, event id, time, data, max
// records, TTL in ms, channel, name. It returns {entry id, epoch}.
var appendScript = goredis.NewScript(`
redis.call('HSETNX', KEYS[2], 'epoch', ARGV[1])
local id = redis.call('XADD', KEYS[1], '*', 'e', ARGV[2], 't', ARGV[3], 'd', ARGV[4])
local excess = redis.call('XLEN', KEYS[1]) - tonumber(ARGV[5])
if excess > 0 then
  local old = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', excess)
  redis.call('XTRIM', KEYS[1], 'MAXLEN', ARGV[5])
  redis.call('HSET', KEYS[2], 'trimmed', old[#old][1])
end
redis.call('HSET', KEYS[2], 'head', id)
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PUBLISH', ARGV[7], ARGV[8])
return {id, redis.call('HGET', KEYS[2], 'epoch')}
`)

// epochScript returns the epoch of a log, making it (with the TTL in ms
// ARGV[2]) if the log has none. KEYS: meta. ARGV: epoch if new, TTL.
var epochScript = goredis.NewScript(`
if redis.call('HSETNX', KEYS[1], 'epoch', ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('HGET', KEYS[1], 'epoch')
`)

// Append adds r to the log of r.Name and returns its cursor.
func (l *EventLog) Append(ctx context.Context, r events.Record) (string, error) {
	stream, meta, err := l.keys(r.Name)
	if err != nil {
		return "", err
	}
	if r.EventID == "" {
		return "", errors.New("mcp/redis: EventLog.Append: record without an event id")
	}
	if err := checkData(r.Data); err != nil {
		return "", fmt.Errorf("mcp/redis: EventLog.Append: %w", err)
	}
	ts, err := r.Time.MarshalText()
	if err != nil {
		return "", fmt.Errorf("mcp/redis: EventLog.Append: record time: %w", err)
	}
	if n := len(r.EventID) + len(ts) + len(r.Data); n > l.opts.MaxRecordBytes {
		return "", fmt.Errorf("mcp/redis: EventLog.Append: a record of %d bytes is over the limit of %d", n, l.opts.MaxRecordBytes)
	}
	res, err := appendScript.Run(ctx, l.b.client, []string{stream, meta},
		newEpoch(), r.EventID, ts, []byte(r.Data), l.opts.MaxRecords, l.opts.MaxAge.Milliseconds(), l.notify, r.Name).StringSlice()
	if err != nil {
		return "", fmt.Errorf("mcp/redis: appending an event: %w", err)
	}
	if len(res) != 2 {
		return "", fmt.Errorf("mcp/redis: appending an event: unexpected reply %q", res)
	}
	id, ok := parseStreamID(res[0])
	if !ok || !validEpoch(res[1]) {
		return "", fmt.Errorf("mcp/redis: appending an event: unexpected reply %q", res)
	}
	return formatCursor(res[1], id), nil
}

// checkData reports whether data is a JSON object, decoded strictly.
func checkData(data json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := strictjson.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("the data is not a JSON object: %w", err)
	}
	if obj == nil {
		return errors.New("the data is not a JSON object: null")
	}
	return nil
}
