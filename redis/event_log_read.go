package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events"
)

// A logSnapshot is what one round trip (a transaction) read of a log: its
// bookkeeping and the entries after a position.
type logSnapshot struct {
	epoch   string   // "" if the log has no keys
	head    streamID // the last id added, 0-0 if none
	trimmed streamID // the last id trimmed away, 0-0 if none
	entries []goredis.XMessage
}

// fetch reads the bookkeeping of a log and, if withEntries, up to count
// entries after the position after, in one transaction.
func (l *EventLog) fetch(ctx context.Context, stream, meta string, after streamID, count int64, withEntries bool) (logSnapshot, error) {
	var hm *goredis.SliceCmd
	var xr *goredis.XMessageSliceCmd
	from, ok := after.next()
	_, err := l.b.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		hm = p.HMGet(ctx, meta, "epoch", "head", "trimmed")
		if withEntries && ok {
			xr = p.XRangeN(ctx, stream, from.String(), "+", count)
		}
		return nil
	})
	if err != nil {
		return logSnapshot{}, fmt.Errorf("mcp/redis: reading events: %w", err)
	}
	var snap logSnapshot
	vals := hm.Val()
	if len(vals) != 3 {
		return logSnapshot{}, fmt.Errorf("mcp/redis: reading events: unexpected reply %v", vals)
	}
	if vals[0] != nil {
		if snap.epoch, _ = vals[0].(string); !validEpoch(snap.epoch) {
			return logSnapshot{}, fmt.Errorf("mcp/redis: reading events: the log's epoch %q is corrupt", vals[0])
		}
	}
	for i, id := range []*streamID{&snap.head, &snap.trimmed} {
		if v := vals[i+1]; v != nil {
			s, _ := v.(string)
			if *id, ok = parseStreamID(s); !ok {
				return logSnapshot{}, fmt.Errorf("mcp/redis: reading events: the log's bookkeeping %q is corrupt", s)
			}
		}
	}
	if xr != nil {
		snap.entries = xr.Val()
	}
	return snap, nil
}

// epoch returns the epoch of a log, making it if the log has none.
func (l *EventLog) epoch(ctx context.Context, meta string) (string, error) {
	e, err := epochScript.Run(ctx, l.b.client, []string{meta}, newEpoch(), l.opts.MaxAge.Milliseconds()).Text()
	if err != nil {
		return "", fmt.Errorf("mcp/redis: reading events: %w", err)
	}
	if !validEpoch(e) {
		return "", fmt.Errorf("mcp/redis: reading events: the log's epoch %q is corrupt", e)
	}
	return e, nil
}

// read is Read, made of one or more round trips.
func (l *EventLog) read(ctx context.Context, req events.ReadRequest) (events.ReadResult, error) {
	stream, meta, err := l.keys(req.Name)
	if err != nil {
		return events.ReadResult{}, err
	}
	var c cursor
	if req.After != "" {
		if c, err = parseCursor(req.After); err != nil {
			return events.ReadResult{}, err
		}
	}
	limit := min(max(req.Max, 1), maxReadRecords)
	floor := l.opts.Now().Add(-l.opts.MaxAge)
	if req.Since.After(floor) {
		floor = req.Since
	}
	pos, gap := c.id, false
	for range maxReadPages {
		snap, err := l.fetch(ctx, stream, meta, pos, int64(limit+1), req.After != "" && !c.foreign)
		if err != nil {
			return events.ReadResult{}, err
		}
		if snap.epoch == "" {
			if snap.epoch, err = l.epoch(ctx, meta); err != nil {
				return events.ReadResult{}, err
			}
		}
		head := formatCursor(snap.epoch, snap.head)
		switch {
		case req.After == "":
			return events.ReadResult{Next: head}, nil
		case c.foreign || c.epoch != snap.epoch || snap.head.less(pos):
			// Another log's cursor, or one past this log's head.
			return events.ReadResult{Next: head, Truncated: true}, nil
		case pos.less(snap.trimmed):
			// The entries fetched are the oldest kept, all after trimmed.
			pos, gap = snap.trimmed, true
		}
		res, done := l.scan(snap, req.Name, &pos, &gap, floor, limit)
		if done {
			return res, nil
		}
		if !gap {
			return events.ReadResult{Next: head}, nil
		}
		if len(snap.entries) <= limit { // the end of the log, all skipped
			return events.ReadResult{Next: formatCursor(snap.epoch, pos), Truncated: true}, nil
		}
		c.epoch = snap.epoch
	}
	return events.ReadResult{Next: formatCursor(c.epoch, pos), Truncated: true}, nil
}

// scan goes through the entries of a snapshot after *pos: it skips the
// leading ones older than floor, or that do not decode, as a gap (moving
// *pos past them and setting *gap), and returns a result (done) at the
// first record to deliver after a gap, or with up to limit records. Not
// done, every entry was skipped, or there were none.
func (l *EventLog) scan(snap logSnapshot, name string, pos *streamID, gap *bool, floor time.Time, limit int) (res events.ReadResult, done bool) {
	var recs []events.Record
	for _, m := range snap.entries {
		id, ok := parseStreamID(m.ID)
		if !ok || !pos.less(id) {
			continue // not a position after pos: never from Redis
		}
		rec, err := l.decode(m, name, snap.epoch, id)
		if err != nil {
			l.b.opts.Logger.Warn("mcp/redis: skipped an event log entry that does not decode", "name", name, "id", m.ID, "error", err)
		}
		if err != nil && len(recs) > 0 {
			// Delivered up to it; the next read reports it as a gap.
			return events.ReadResult{Records: recs, Next: recs[len(recs)-1].Cursor, More: true}, true
		}
		if err != nil || len(recs) == 0 && rec.Time.Before(floor) {
			*pos, *gap = id, true
			continue
		}
		if *gap {
			return events.ReadResult{Next: formatCursor(snap.epoch, *pos), Truncated: true}, true
		}
		if len(recs) == limit {
			return events.ReadResult{Records: recs, Next: recs[len(recs)-1].Cursor, More: true}, true
		}
		recs = append(recs, rec)
	}
	if len(recs) > 0 {
		return events.ReadResult{Records: recs, Next: recs[len(recs)-1].Cursor}, true
	}
	return events.ReadResult{}, false
}

// errBadEntry reports a stream entry that is not a record of an EventLog.
var errBadEntry = errors.New("mcp/redis: malformed event log entry")

// decode returns the record a stream entry holds: exactly the fields e
// (event id), t (RFC 3339 time) and d (a JSON object), within
// MaxRecordBytes.
func (l *EventLog) decode(m goredis.XMessage, name, epoch string, id streamID) (events.Record, error) {
	if len(m.Values) != 3 {
		return events.Record{}, fmt.Errorf("%w: %d fields", errBadEntry, len(m.Values))
	}
	e, ok1 := m.Values["e"].(string)
	t, ok2 := m.Values["t"].(string)
	d, ok3 := m.Values["d"].(string)
	if !ok1 || !ok2 || !ok3 || e == "" {
		return events.Record{}, fmt.Errorf("%w: fields e, t and d wanted", errBadEntry)
	}
	if n := len(e) + len(t) + len(d); n > l.opts.MaxRecordBytes {
		return events.Record{}, fmt.Errorf("%w: %d bytes, over the limit of %d", errBadEntry, n, l.opts.MaxRecordBytes)
	}
	var ts time.Time
	if err := ts.UnmarshalText([]byte(t)); err != nil {
		return events.Record{}, fmt.Errorf("%w: time: %w", errBadEntry, err)
	}
	if err := checkData(json.RawMessage(d)); err != nil {
		return events.Record{}, fmt.Errorf("%w: %w", errBadEntry, err)
	}
	return events.Record{Cursor: formatCursor(epoch, id), EventID: e, Name: name, Time: ts, Data: json.RawMessage(d)}, nil
}
