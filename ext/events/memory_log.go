package events

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of MemoryLogOptions.
const (
	// DefaultMaxRecords is how many records of each event type a
	// MemoryLog keeps.
	DefaultMaxRecords = 10_000
	// DefaultMaxAge is how long a MemoryLog keeps a record.
	DefaultMaxAge = 24 * time.Hour
)

// MemoryLogOptions configure a MemoryLog; nil means defaults.
type MemoryLogOptions struct {
	// MaxRecords is how many records of each event type are kept; older
	// ones are dropped (default DefaultMaxRecords).
	MaxRecords int
	// MaxAge is how long a record is kept (default DefaultMaxAge).
	MaxAge time.Duration
	// Now is the clock used for MaxAge (default time.Now).
	Now func() time.Time
}

// A MemoryLog is a Log in memory, the default of a Server: one process's
// instances of a server share it by sharing the value. Its cursors name
// the MemoryLog they came from, so a cursor a client kept across a restart
// reads as a gap (Truncated), never as a position in the new log.
type MemoryLog struct {
	opts  MemoryLogOptions
	epoch string // random, in every cursor

	mu   sync.Mutex
	logs map[string]*typeLog
}

// A typeLog is the log of one event type: records with sequence numbers
// first, first+1, ...; the cursor of a record is its sequence number.
type typeLog struct {
	recs    []Record
	first   uint64 // sequence number of recs[0], or of the next record when recs is empty
	changed chan struct{}
}

var _ Log = (*MemoryLog)(nil)

// NewMemoryLog returns an empty MemoryLog.
func NewMemoryLog(opts *MemoryLogOptions) *MemoryLog {
	l := &MemoryLog{logs: make(map[string]*typeLog)}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.MaxRecords <= 0 {
		l.opts.MaxRecords = DefaultMaxRecords
	}
	if l.opts.MaxAge <= 0 {
		l.opts.MaxAge = DefaultMaxAge
	}
	if l.opts.Now == nil {
		l.opts.Now = time.Now
	}
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	l.epoch = hex.EncodeToString(b[:])
	return l
}

// log returns the log of name, made on first use; the caller holds l.mu.
func (l *MemoryLog) log(name string) *typeLog {
	t := l.logs[name]
	if t == nil {
		t = &typeLog{first: 1, changed: make(chan struct{})}
		l.logs[name] = t
	}
	return t
}

// cursor returns the cursor of sequence number seq.
func (l *MemoryLog) cursor(seq uint64) string {
	return l.epoch + "." + strconv.FormatUint(seq, 10)
}

// parse returns the sequence number of a cursor, and false for a well
// formed cursor of another MemoryLog.
func (l *MemoryLog) parse(cursor string) (uint64, bool, error) {
	epoch, num, ok := strings.Cut(cursor, ".")
	seq, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil || epoch == "" {
		return 0, false, fmt.Errorf("%w: %q", ErrBadCursor, cursor)
	}
	return seq, epoch == l.epoch, nil
}

// trim drops the records past the log's bounds; the caller holds l.mu.
func (l *MemoryLog) trim(t *typeLog) {
	drop := max(len(t.recs)-l.opts.MaxRecords, 0)
	oldest := l.opts.Now().Add(-l.opts.MaxAge)
	for drop < len(t.recs) && t.recs[drop].Time.Before(oldest) {
		drop++
	}
	if drop > 0 {
		clear(t.recs[:drop])
		t.recs = t.recs[drop:]
		t.first += uint64(drop)
	}
}

// Append adds r to the log of r.Name.
func (l *MemoryLog) Append(ctx context.Context, r Record) (string, error) {
	if r.Name == "" {
		return "", fmt.Errorf("events: MemoryLog.Append: record without a name")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.log(r.Name)
	seq := t.first + uint64(len(t.recs))
	r.Cursor = l.cursor(seq)
	t.recs = append(t.recs, r)
	l.trim(t)
	close(t.changed)
	t.changed = make(chan struct{})
	return r.Cursor, nil
}

// Read returns records of req.Name after req.After.
func (l *MemoryLog) Read(ctx context.Context, req ReadRequest) (ReadResult, error) {
	var after uint64
	own := true
	if req.After != "" {
		var err error
		if after, own, err = l.parse(req.After); err != nil {
			return ReadResult{}, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.log(req.Name)
	l.trim(t)
	head := t.first + uint64(len(t.recs)) - 1
	switch {
	case req.After == "":
		return ReadResult{Next: l.cursor(head)}, nil
	case !own || after > head:
		// Another log's cursor, or one from before a restart.
		return ReadResult{Next: l.cursor(head), Truncated: true}, nil
	case after+1 < t.first:
		// Records after the cursor were dropped.
		return ReadResult{Next: l.cursor(t.first - 1), Truncated: true}, nil
	}
	i := int(after + 1 - t.first) // index of the first record after the cursor
	if !req.Since.IsZero() {
		j := i
		for j < len(t.recs) && t.recs[j].Time.Before(req.Since) {
			j++
		}
		if j > i {
			return ReadResult{Next: l.cursor(t.first + uint64(j) - 1), Truncated: true}, nil
		}
	}
	n := min(len(t.recs)-i, max(req.Max, 1))
	if n == 0 {
		return ReadResult{Next: l.cursor(head)}, nil
	}
	recs := make([]Record, n)
	copy(recs, t.recs[i:i+n])
	return ReadResult{Records: recs, Next: recs[n-1].Cursor, More: i+n < len(t.recs)}, nil
}

// Changed returns a channel closed at the next Append to name's log.
func (l *MemoryLog) Changed(name string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.log(name).changed
}
