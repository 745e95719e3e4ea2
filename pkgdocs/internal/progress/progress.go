// Package progress reports how far a cold answer has got (resolving the
// version, fetching artefacts, reading their files) to whoever asked for
// it: an MCP client that sent a progress token, or a person watching a
// terminal. A Reporter travels in the context through the service, fetch
// and archive layers, which call its methods (all safe on a nil
// *Reporter, so code without a reporter pays nothing). One goroutine per
// reporter hands the latest state to a sink, at most once per interval,
// so a large archive does not flood the client and the work never waits
// for the sink; the last state is always delivered. An Update holds a
// stage and counts only, never text from a package.
package progress

import (
	"context"
	"io"
	"sync"
	"time"
)

// Stage names what a cold answer is doing.
type Stage int

// The stages of a cold answer, in the order they usually come (a package
// that leads to others fetches and reads again).
const (
	// Resolving: the answer is not cached; the version is being chosen.
	Resolving Stage = iota + 1
	// Fetching: a registry's answer or an archive is being downloaded.
	Fetching
	// Reading: files of a downloaded archive are being read.
	Reading
	// Done: the answer is ready (or failed); the last update.
	Done
)

// String returns the stage's name as messages use it.
func (s Stage) String() string {
	switch s {
	case Resolving:
		return "resolving"
	case Fetching:
		return "fetching"
	case Reading:
		return "reading"
	case Done:
		return "done"
	}
	return "unknown"
}

// Update is the state a sink receives.
type Update struct {
	// Stage is the current stage; Done in the last update.
	Stage Stage
	// Progress is the work done so far: bytes fetched, plus files read,
	// plus one for each stage begun. It grows with every update.
	Progress float64
	// Total is 0 (unknown) until the last update, where it equals
	// Progress.
	Total float64
	// Bytes is the number of body bytes fetched so far, over all downloads.
	Bytes int64
	// Downloads counts the downloads begun.
	Downloads int
	// Latest is the number of bytes fetched of the download begun last,
	// and LatestSize the length it announced (0 when unknown).
	Latest, LatestSize int64
	// Files counts the archive files read.
	Files int
}

// Options tunes a Reporter. Zero fields take defaults.
type Options struct {
	// Interval is the least time between two updates handed to the sink,
	// the last one excepted; default 250 ms (at most four a second).
	Interval time.Duration
	// FinishWait bounds how long Finish waits for the sink to take the
	// last update; default 2 s.
	FinishWait time.Duration
}

// DefaultInterval is the least time between two updates by default.
const DefaultInterval = 250 * time.Millisecond

// Reporter collects the progress of one answer and hands it to a sink.
// Its methods are safe for concurrent use and on a nil *Reporter.
type Reporter struct {
	sink       func(Update)
	interval   time.Duration
	finishWait time.Duration

	mu       sync.Mutex
	state    Update
	stages   int  // stages begun
	changed  bool // state differs from what was last handed to the sink
	started  bool // the sending goroutine runs
	finished bool

	// Made with the sending goroutine, on the first update, so that an
	// answer that reports nothing (a warm one) allocates none of them.
	wake    chan struct{} // an update is waiting (capacity 1)
	done    chan struct{} // closed by Finish
	stopped chan struct{} // closed when the sending goroutine returns
}

// New returns a Reporter handing updates to sink. sink is called from one
// goroutine at a time, never from the caller of the Reporter's methods.
func New(sink func(Update), o *Options) *Reporter {
	r := &Reporter{sink: sink, interval: DefaultInterval, finishWait: 2 * time.Second}
	if o != nil && o.Interval > 0 {
		r.interval = o.Interval
	}
	if o != nil && o.FinishWait > 0 {
		r.finishWait = o.FinishWait
	}
	return r
}

// Resolving reports that a cold answer has begun: its version is being
// chosen.
func (r *Reporter) Resolving() {
	r.update(func(u *Update) { r.enter(u, Resolving) })
}

// Body begins a download of length bytes (negative when unknown) and
// returns body counting the bytes read from it. A nil Reporter returns
// body itself.
func (r *Reporter) Body(body io.Reader, length int64) io.Reader {
	if r == nil {
		return body
	}
	var n int
	r.update(func(u *Update) {
		r.enter(u, Fetching)
		u.Downloads++
		n = u.Downloads
		u.Latest, u.LatestSize = 0, max(length, 0)
	})
	return &countingReader{body: body, r: r, download: n}
}

// FileRead reports that one more file of an archive was read.
func (r *Reporter) FileRead() {
	r.update(func(u *Update) {
		r.enter(u, Reading)
		u.Files++
	})
}

// enter makes s the current stage, counting it when it is new.
func (r *Reporter) enter(u *Update, s Stage) {
	if u.Stage != s {
		u.Stage = s
		r.stages++
	}
}

// update applies f to the state and wakes the sending goroutine, starting
// it on the first update. Updates after Finish are dropped (a load shared
// with a later request may outlive the answer that started it).
func (r *Reporter) update(f func(*Update)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return
	}
	f(&r.state)
	r.state.Progress = r.work()
	r.changed = true
	if !r.started {
		r.started = true
		r.wake, r.done, r.stopped = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go r.send()
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default: // already woken: it will take the latest state
	}
}

// fetched adds n to the bytes fetched, and to those of the latest
// download if download, counted from 1, is the latest.
func (r *Reporter) fetched(download, n int) {
	r.update(func(u *Update) {
		u.Bytes += int64(n)
		if download == u.Downloads {
			u.Latest += int64(n)
		}
	})
}

// work is the Progress of the state: bytes fetched, files read and stages
// begun, each of which only grows. r.mu is held.
func (r *Reporter) work() float64 {
	return float64(r.state.Bytes + int64(r.state.Files) + int64(r.stages))
}

// snapshot returns the state to send, if it changed, and whether it is
// the last.
func (r *Reporter) snapshot() (u Update, changed, final bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u, changed, final = r.state, r.changed, r.finished
	r.changed = false
	return u, changed, final
}

// send hands the latest state to the sink whenever it changes, then rests
// for the interval (unless Finish cuts the rest short), until the last
// update.
func (r *Reporter) send() {
	defer close(r.stopped)
	for {
		select {
		case <-r.wake:
		case <-r.done:
		}
		u, changed, final := r.snapshot()
		if changed {
			r.sink(u)
		}
		if final {
			return
		}
		t := time.NewTimer(r.interval)
		select {
		case <-t.C:
		case <-r.done:
			t.Stop()
		}
	}
}

// Finish ends the answer's progress. If anything was reported, the sink
// receives a last update, stage Done, with Total equal to Progress; Finish
// waits for it to be taken, at most FinishWait, so that it precedes the
// answer. Nothing reported, nothing is sent (a warm answer is silent).
// Later calls do nothing.
func (r *Reporter) Finish() {
	if r == nil {
		return
	}
	r.mu.Lock()
	if r.finished || !r.started {
		r.finished = true
		r.mu.Unlock()
		return
	}
	r.stages++
	r.state.Stage = Done
	r.state.Progress = r.work()
	r.state.Total = r.state.Progress
	r.changed = true
	r.finished = true
	r.mu.Unlock()
	close(r.done)
	t := time.NewTimer(r.finishWait)
	defer t.Stop()
	select {
	case <-r.stopped:
	case <-t.C: // the sink is stuck; the answer does not wait for it
	}
}

// countingReader reports the bytes read through it.
type countingReader struct {
	body     io.Reader
	r        *Reporter
	download int // its number among the reporter's downloads
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.body.Read(p)
	if n > 0 {
		c.r.fetched(c.download, n)
	}
	return n, err
}

type contextKey struct{}

// NewContext returns ctx carrying r.
func NewContext(ctx context.Context, r *Reporter) context.Context {
	return context.WithValue(ctx, contextKey{}, r)
}

// FromContext returns the Reporter ctx carries, or nil.
func FromContext(ctx context.Context) *Reporter {
	r, _ := ctx.Value(contextKey{}).(*Reporter)
	return r
}
