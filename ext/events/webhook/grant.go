package webhook

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// TTL is the ttlMs an events/subscribe request carried: absent (the zero
// TTL), null (NoExpiry, a request for no expiry), or a number of
// milliseconds. It decodes from the JSON of ttlMs; a params struct declares
// it with omitzero so that absent and null stay apart.
type TTL struct {
	// Set reports that ttlMs was present.
	Set bool
	// NoExpiry reports that ttlMs was null.
	NoExpiry bool
	// Millis is the requested lifetime when Set and not NoExpiry.
	Millis int64
}

// UnmarshalJSON reads null or an integer number of milliseconds.
func (t *TTL) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*t = TTL{Set: true, NoExpiry: true}
		return nil
	}
	ms, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(b), 64)
		if ferr != nil || f != float64(int64(f)) {
			return fmt.Errorf("webhook: ttlMs must be null or an integer, not %.40q", b)
		}
		ms = int64(f)
	}
	*t = TTL{Set: true, Millis: ms}
	return nil
}

// MarshalJSON writes null for NoExpiry and the number of milliseconds
// otherwise.
func (t TTL) MarshalJSON() ([]byte, error) {
	if t.NoExpiry {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, t.Millis, 10), nil
}

// Defaults of GrantPolicy: the events extension suggests grants of a few
// minutes to about a day.
const (
	DefaultGrantTTL = time.Hour
	DefaultMinTTL   = time.Minute
	DefaultMaxTTL   = 24 * time.Hour
)

// A GrantPolicy decides how long a subscription lives. The zero value gives
// the defaults and never grants no expiry.
type GrantPolicy struct {
	// Default is granted when ttlMs is absent (default 1 h).
	Default time.Duration
	// Min is the shortest grant: shorter requests are clamped up to it
	// (default 1 min).
	Min time.Duration
	// Max is the longest grant: longer requests, and requests for no
	// expiry when AllowNoExpiry is false, get Max (default 24 h).
	Max time.Duration
	// AllowNoExpiry grants no expiry to a request with ttlMs null. Only a
	// server that keeps subscriptions (and their verification) across
	// restarts may set it.
	AllowNoExpiry bool
}

// A Grant is the lifetime granted to a subscription: refreshBefore in the
// subscribe result. The zero Grant is no expiry.
type Grant struct {
	// RefreshBefore is the time the subscription ends unless refreshed;
	// zero means no expiry.
	RefreshBefore time.Time
}

// NoExpiry reports whether g never ends.
func (g Grant) NoExpiry() bool { return g.RefreshBefore.IsZero() }

// Expired reports whether g has ended at now.
func (g Grant) Expired(now time.Time) bool {
	return !g.NoExpiry() && !now.Before(g.RefreshBefore)
}

// MarshalJSON writes refreshBefore: null for no expiry, an RFC 3339 time in
// UTC with milliseconds otherwise.
func (g Grant) MarshalJSON() ([]byte, error) {
	if g.NoExpiry() {
		return []byte("null"), nil
	}
	return []byte(`"` + formatTime(g.RefreshBefore) + `"`), nil
}

// formatTime writes t as the events extension's ISO 8601 times are written.
func formatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// Grant returns the lifetime granted at now to a request for ttl: the
// default when absent, no expiry only for a null ttlMs and only with
// AllowNoExpiry, and otherwise the request clamped to [Min, Max]. The grant
// is never later than requested, except when clamped up to Min; there is no
// way to refuse a TTL.
func (p GrantPolicy) Grant(now time.Time, ttl TTL) Grant {
	lo := positive(p.Min, DefaultMinTTL)
	hi := max(positive(p.Max, DefaultMaxTTL), lo)
	var d time.Duration
	switch {
	case !ttl.Set:
		d = positive(p.Default, DefaultGrantTTL)
	case ttl.NoExpiry && p.AllowNoExpiry:
		return Grant{}
	case ttl.NoExpiry:
		d = hi
	case ttl.Millis > int64(hi/time.Millisecond):
		d = hi
	default:
		d = time.Duration(ttl.Millis) * time.Millisecond
	}
	return Grant{RefreshBefore: now.Add(min(max(d, lo), hi))}
}

// UnmarshalJSON reads refreshBefore: null for no expiry, or an RFC 3339
// time.
func (g *Grant) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*g = Grant{}
		return nil
	}
	var t time.Time
	if err := t.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("webhook: refreshBefore: %w", err)
	}
	*g = Grant{RefreshBefore: t}
	return nil
}
