package main

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gomcp/sdk/auth"
	"golang.org/x/time/rate"
)

// sweepFloor is the number of principals a rateLimiter keeps before it
// first looks for limiters it can forget.
const sweepFloor = 1024

// A rateLimiter gives each principal (the subject of its access token,
// or without OAuth its network address) a token bucket of its own: rate
// requests per second, bursts of up to burst. A request over the limit is
// answered 429 with Retry-After, the whole seconds until the principal's
// next request would be accepted.
//
// A bucket that has filled up again is the same as a new one, so the
// limiter forgets such buckets whenever it holds twice as many as after
// its last sweep: memory follows the principals active within the time a
// bucket takes to refill (burst/rate), however many come and go.
type rateLimiter struct {
	rate  rate.Limit
	burst int
	now   func() time.Time // time.Now; tests set a clock

	mu        sync.Mutex
	buckets   map[string]*rate.Limiter
	nextSweep int
}

// newRateLimiter returns a limiter of perSecond requests per second with
// bursts of burst for each principal, or nil (no limit) when perSecond is
// 0.
func newRateLimiter(perSecond float64, burst int) (*rateLimiter, error) {
	switch {
	case perSecond == 0:
		return nil, nil
	case perSecond < 0 || math.IsNaN(perSecond) || math.IsInf(perSecond, 0):
		return nil, fmt.Errorf("--rate-limit %v: want requests per second, at least 0 (0: no limit)", perSecond)
	case burst < 1:
		return nil, fmt.Errorf("--rate-burst %d: want at least 1", burst)
	}
	return &rateLimiter{rate: rate.Limit(perSecond), burst: burst, now: time.Now,
		buckets: map[string]*rate.Limiter{}, nextSweep: sweepFloor}, nil
}

// allow takes one request from principal's bucket. When the bucket is
// empty it takes nothing and returns how long until it would hold one.
func (l *rateLimiter) allow(principal string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[principal]
	if b == nil {
		if len(l.buckets) >= l.nextSweep {
			l.sweep(now)
		}
		b = rate.NewLimiter(l.rate, l.burst) // full
		l.buckets[principal] = b
	}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep forgets the buckets that are full again. l.mu is held.
func (l *rateLimiter) sweep(now time.Time) {
	for p, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, p)
		}
	}
	l.nextSweep = max(2*len(l.buckets), sweepFloor)
}

// middleware limits the requests that reach next. It runs behind the
// OAuth middleware, whose token names the principal; without one the
// principal is the client's network address (behind a reverse proxy,
// the proxy's: limit there instead, or use OAuth). CORS preflights,
// which browsers send on their own, are not counted.
func (l *rateLimiter) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		principal := principalOf(r)
		if ok, wait := l.allow(principal); !ok {
			secs := int64(math.Ceil(wait.Seconds()))
			w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
			http.Error(w, fmt.Sprintf("pkgdocs: rate limit of %g requests per second (bursts of %d) reached; retry in %d s",
				float64(l.rate), l.burst, secs), http.StatusTooManyRequests)
			if rec := recordOf(r.Context()); rec != nil {
				rec.limited = true
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// principalOf names who makes r: the issuer and subject of its access
// token (the client id when the token has no subject), or without a
// token the host part of the client's address.
func principalOf(r *http.Request) string {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		who := ti.Subject
		if who == "" {
			who = "client:" + ti.ClientID
		}
		return ti.Issuer + "\x00" + who
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
