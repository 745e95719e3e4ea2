package events

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// A Log keeps the occurrences of every event type, in order, and is where
// cursors come from: the storage seam of the extension. Each event type
// has its own sequence of records; a cursor is a position in one, made by
// the Log and opaque to everyone else. Several server instances that share
// one Log (a Redis backend, say) hand out cursors that any of them
// resumes. Implementations must be safe for concurrent use; package
// eventstest checks one against the contract below.
type Log interface {
	// Append adds a record to the end of the log of r.Name and returns
	// its cursor: the position just after it.
	Append(ctx context.Context, r Record) (cursor string, err error)
	// Read returns records of req.Name after req.After, oldest first
	// (see ReadRequest and ReadResult). A cursor the Log did not make, or
	// made for a log it no longer has (a restart of a memory log), is not
	// an error when it is well formed: the read is Truncated and Next is
	// the head. A malformed cursor is an error wrapping ErrBadCursor.
	Read(ctx context.Context, req ReadRequest) (ReadResult, error)
	// Changed returns a channel that is closed at the next Append to the
	// log of name, or earlier. A reader takes it before a Read that found
	// nothing new, then waits on it: no Append is missed.
	Changed(name string) <-chan struct{}
}

// ErrBadCursor is wrapped by the error of a read given a malformed cursor.
var ErrBadCursor = errors.New("events: malformed cursor")

// A Record is an occurrence as a Log keeps it.
type Record struct {
	// Cursor is the position just after the record, set by the Log.
	Cursor string
	// EventID identifies the occurrence.
	EventID string
	// Name is the event type's name.
	Name string
	// Time is when the event occurred.
	Time time.Time
	// Data is the payload, a JSON object.
	Data json.RawMessage
}

// A ReadRequest asks a Log for records of one event type.
type ReadRequest struct {
	// Name is the event type's name.
	Name string
	// After is the cursor to read after; "" reads nothing and returns
	// the head ("from now").
	After string
	// Since, if not zero, is the replay floor: records older than it are
	// not returned.
	Since time.Time
	// Max bounds the records returned; it is at least 1.
	Max int
}

// A ReadResult is what a read found.
type ReadResult struct {
	// Records are at most Max records after After, oldest first.
	Records []Record
	// Next is where the next read continues: the cursor of the last
	// record returned, else the head of the log.
	Next string
	// Truncated reports that records after After were dropped (by
	// retention) or are older than Since. Such a read returns no records,
	// and Next is the position just before the oldest record still to be
	// delivered: the gap is reported before delivery goes on.
	Truncated bool
	// More reports that records after Next exist already.
	More bool
}
