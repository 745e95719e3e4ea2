package webhook

import (
	"errors"
	"sync"
	"time"
)

// DefaultChallengesPerHost is how many verification challenges a Sender
// sends to one host per minute by default.
const DefaultChallengesPerHost = 10

// challengeWindow is the period the challenge limit counts over.
const challengeWindow = time.Minute

// maxLimitedHosts bounds the hosts a challengeLimiter tracks; past it,
// hosts whose window has ended are dropped.
const maxLimitedHosts = 10000

// ErrChallengeRateLimited is the error (tested with errors.Is) of a
// challenge that was not sent because the host already got
// SenderOptions.ChallengesPerHost challenges this minute: verification
// POSTs are rate-limited per destination host so that subscribing cannot
// be used to flood a third party. It has no category; a server answers it
// as ResourceExhausted, or retries later.
var ErrChallengeRateLimited = errors.New("webhook: too many challenges to this host")

// challengeLimiter counts challenges per host in fixed one-minute windows.
type challengeLimiter struct {
	max int // 0: unlimited

	mu    sync.Mutex
	hosts map[string]*hostWindow
}

// hostWindow is one host's count in its current window.
type hostWindow struct {
	start time.Time
	n     int
}

// allow counts a challenge to host at now, and reports whether it may be
// sent.
func (l *challengeLimiter) allow(host string, now time.Time) bool {
	if l.max <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.hosts == nil {
		l.hosts = map[string]*hostWindow{}
	}
	w, ok := l.hosts[host]
	if !ok || now.Sub(w.start) >= challengeWindow || now.Before(w.start) {
		if !ok && len(l.hosts) >= maxLimitedHosts {
			for h, old := range l.hosts {
				if now.Sub(old.start) >= challengeWindow {
					delete(l.hosts, h)
				}
			}
			if len(l.hosts) >= maxLimitedHosts {
				return false
			}
		}
		w = &hostWindow{start: now}
		l.hosts[host] = w
	}
	if w.n >= l.max {
		return false
	}
	w.n++
	return true
}
