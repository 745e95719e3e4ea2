package redis

import (
	"errors"
	"strings"
	"testing"

	"github.com/gomcp/sdk/ext/events"
)

// TestParseCursor: the cursor grammar, "<epoch>.<ms>-<seq>", and a
// MemoryLog's "<epoch>.<seq>" as foreign; anything else is malformed.
func TestParseCursor(t *testing.T) {
	tests := []struct {
		in      string
		want    cursor
		foreign bool
		bad     bool
	}{
		{in: "0123abcd.1700000000000-3", want: cursor{epoch: "0123abcd", id: streamID{1700000000000, 3}}},
		{in: "e.0-0", want: cursor{epoch: "e", id: streamID{}}},
		{in: "e.18446744073709551615-18446744073709551615", want: cursor{epoch: "e", id: streamID{1<<64 - 1, 1<<64 - 1}}},
		{in: "a1b2c3.42", foreign: true},
		{in: "", bad: true},
		{in: "e", bad: true},
		{in: "e.", bad: true},
		{in: ".1-1", bad: true},
		{in: "e.1-", bad: true},
		{in: "e.-1", bad: true},
		{in: "e.1-1-1", bad: true},
		{in: "e.+1-1", bad: true},
		{in: "e.1-+1", bad: true},
		{in: "e. 1-1", bad: true},
		{in: "e.18446744073709551616-0", bad: true},
		{in: "e.18446744073709551616", bad: true},
		{in: "e{x}.1-1", bad: true},
		{in: "e.1-1.2", bad: true},
		{in: strings.Repeat("a", 65) + ".1-1", bad: true},
		{in: "e." + strings.Repeat("1", 200), bad: true},
	}
	for _, tt := range tests {
		got, err := parseCursor(tt.in)
		switch {
		case tt.bad:
			if !errors.Is(err, events.ErrBadCursor) {
				t.Errorf("parseCursor(%q) = %+v, %v; want ErrBadCursor", tt.in, got, err)
			}
		case err != nil:
			t.Errorf("parseCursor(%q): %v", tt.in, err)
		case tt.foreign:
			if !got.foreign {
				t.Errorf("parseCursor(%q) = %+v, want foreign", tt.in, got)
			}
		case got != tt.want || formatCursor(got.epoch, got.id) != tt.in:
			t.Errorf("parseCursor(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseCursor: parsing never panics; a cursor accepted as this log's
// formats back to one that parses to the same position.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"e.1-1", "abc.5", "e.18446744073709551615-0", ".", "e.01-002"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseCursor(s)
		if err != nil {
			if !errors.Is(err, events.ErrBadCursor) {
				t.Fatalf("parseCursor(%q): %v, not ErrBadCursor", s, err)
			}
			return
		}
		if len(s) > maxCursorBytes || !validEpoch(c.epoch) {
			t.Fatalf("parseCursor(%q) accepted %+v", s, c)
		}
		if c.foreign {
			return
		}
		again, err := parseCursor(formatCursor(c.epoch, c.id))
		if err != nil || again != c {
			t.Fatalf("%q: formatted back as %q, parsed %+v, %v", s, formatCursor(c.epoch, c.id), again, err)
		}
	})
}
