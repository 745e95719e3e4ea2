package redis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gomcp/sdk/ext/events"
)

// Cursors of an EventLog are "<epoch>.<ms>-<seq>": the epoch of the event
// type's log (random, made with the log's first key, so a log deleted or
// expired and made again has a new one) and a Redis stream id, the
// position just after a record (its own entry id) or the head of an empty
// log ("0-0"). They are untrusted input: parseCursor accepts only this
// shape, up to maxCursorBytes, and, so that a client keeping a cursor of
// another log (a MemoryLog's "<epoch>.<seq>", before a move to Redis)
// gets a gap rather than an error, that shape too, as foreign.

// maxCursorBytes bounds a cursor accepted from a client.
const maxCursorBytes = 128

// maxEpochBytes bounds the epoch part of a cursor.
const maxEpochBytes = 64

// A streamID is a Redis stream entry id, <ms>-<seq>.
type streamID struct{ ms, seq uint64 }

// less reports whether a is before b.
func (a streamID) less(b streamID) bool {
	return a.ms < b.ms || a.ms == b.ms && a.seq < b.seq
}

// String formats the id as Redis does.
func (a streamID) String() string {
	return strconv.FormatUint(a.ms, 10) + "-" + strconv.FormatUint(a.seq, 10)
}

// next returns the smallest id after a, false if a is the largest.
func (a streamID) next() (streamID, bool) {
	switch {
	case a.seq < math.MaxUint64:
		return streamID{a.ms, a.seq + 1}, true
	case a.ms < math.MaxUint64:
		return streamID{a.ms + 1, 0}, true
	}
	return a, false
}

// parseStreamID parses "<ms>-<seq>", both decimal without sign.
func parseStreamID(s string) (streamID, bool) {
	m, q, ok := strings.Cut(s, "-")
	if !ok || !digits(m) || !digits(q) {
		return streamID{}, false
	}
	ms, err1 := strconv.ParseUint(m, 10, 64)
	seq, err2 := strconv.ParseUint(q, 10, 64)
	return streamID{ms, seq}, err1 == nil && err2 == nil
}

// digits reports whether s is 1 to 20 decimal digits.
func digits(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validEpoch reports whether s can be the epoch of a cursor: 1 to
// maxEpochBytes letters, digits, '-' or '_'.
func validEpoch(s string) bool {
	if s == "" || len(s) > maxEpochBytes {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// formatCursor returns the cursor of position id in the log of epoch.
func formatCursor(epoch string, id streamID) string {
	return epoch + "." + id.String()
}

// A cursor is a parsed cursor. Foreign cursors are well formed but name a
// position in no EventLog (a MemoryLog's sequence number).
type cursor struct {
	epoch   string
	id      streamID
	foreign bool
}

// parseCursor parses a cursor from a client; a malformed one is an error
// wrapping events.ErrBadCursor.
func parseCursor(s string) (cursor, error) {
	bad := func() (cursor, error) {
		if len(s) > maxCursorBytes {
			return cursor{}, fmt.Errorf("%w: %d bytes", events.ErrBadCursor, len(s))
		}
		return cursor{}, fmt.Errorf("%w: %q", events.ErrBadCursor, s)
	}
	if len(s) > maxCursorBytes {
		return bad()
	}
	epoch, pos, ok := strings.Cut(s, ".")
	if !ok || !validEpoch(epoch) {
		return bad()
	}
	if digits(pos) {
		if _, err := strconv.ParseUint(pos, 10, 64); err != nil {
			return bad()
		}
		return cursor{epoch: epoch, foreign: true}, nil
	}
	id, ok := parseStreamID(pos)
	if !ok {
		return bad()
	}
	return cursor{epoch: epoch, id: id}, nil
}
