package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"sync/atomic"
	"time"
)

// MinDPoPNonceKeyBytes is the shortest key NewSharedDPoPNonces accepts.
const MinDPoPNonceKeyBytes = 32

// sharedNonceBytes is how many bytes of the HMAC a nonce keeps (144 bits,
// 24 characters of base64url).
const sharedNonceBytes = 18

// NewSharedDPoPNonces returns a DPoPNonceSource for servers that run as
// several instances: every instance given the same key (at least
// MinDPoPNonceKeyBytes random bytes, kept secret) and the same period
// hands out and accepts the same nonces, without talking to the others.
//
// The nonce of a time window (the Unix time divided by period) is an
// HMAC-SHA256 of the window's number under key. The nonce of the current
// window is handed out; those of the current and the previous window are
// accepted, so a nonce stays valid for between one and two periods. The
// next window's nonce is accepted too during the last DefaultClockSkew
// (at most half a period) of the current one, so that an instance whose
// clock is slightly ahead of another's hands out nonces the other accepts.
// A period of zero means a minute; a period under a second is an error.
func NewSharedDPoPNonces(key []byte, period time.Duration) (DPoPNonceSource, error) {
	if len(key) < MinDPoPNonceKeyBytes {
		return nil, errors.New("auth: a shared DPoP nonce key needs at least 32 bytes")
	}
	switch {
	case period == 0:
		period = time.Minute
	case period < time.Second:
		return nil, errors.New("auth: a DPoP nonce period must be at least a second")
	}
	skew := min(DefaultClockSkew, period/2)
	return &sharedNonces{key: append([]byte(nil), key...), period: period, skew: skew, now: time.Now}, nil
}

// sharedNonces derives nonces from a key and the time; see
// NewSharedDPoPNonces.
type sharedNonces struct {
	key    []byte
	period time.Duration
	skew   time.Duration
	now    func() time.Time

	win atomic.Pointer[nonceWindow] // nonces of the latest window seen
}

var _ DPoPNonceSource = (*sharedNonces)(nil)

// nonceWindow holds the nonces around one window, computed once.
type nonceWindow struct {
	n                int64
	prev, cur, next  string
	prevB, curB, nxB []byte
}

// window returns the nonces around the window now falls in, and where in
// that window now is.
func (s *sharedNonces) window() (*nonceWindow, time.Duration) {
	t := s.now().UnixNano()
	p := int64(s.period)
	n, into := t/p, t%p
	if into < 0 { // before 1970
		n, into = n-1, into+p
	}
	w := s.win.Load()
	if w == nil || w.n != n {
		w = &nonceWindow{n: n, prev: s.nonceOf(n - 1), cur: s.nonceOf(n), next: s.nonceOf(n + 1)}
		w.prevB, w.curB, w.nxB = []byte(w.prev), []byte(w.cur), []byte(w.next)
		s.win.Store(w)
	}
	return w, time.Duration(into)
}

// nonceOf returns the nonce of window n.
func (s *sharedNonces) nonceOf(n int64) string {
	m := hmac.New(sha256.New, s.key)
	var b [8]byte
	m.Write([]byte("gomcp DPoP-Nonce v1\x00"))
	binary.BigEndian.PutUint64(b[:], uint64(s.period))
	m.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(n))
	m.Write(b[:])
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:sharedNonceBytes])
}

// Nonce returns the nonce of the current window.
func (s *sharedNonces) Nonce() string {
	w, _ := s.window()
	return w.cur
}

// Valid reports whether nonce is that of the current or the previous
// window, or of the next one near its start. The comparisons take the
// same time whichever nonce matches.
func (s *sharedNonces) Valid(nonce string) bool {
	w, into := s.window()
	if len(nonce) != len(w.cur) {
		return false // every nonce has the same length, which is no secret
	}
	b := []byte(nonce)
	ok := subtle.ConstantTimeCompare(b, w.curB) | subtle.ConstantTimeCompare(b, w.prevB)
	if into >= s.period-s.skew {
		ok |= subtle.ConstantTimeCompare(b, w.nxB)
	}
	return ok == 1
}
