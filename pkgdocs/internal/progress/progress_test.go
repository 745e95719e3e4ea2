package progress

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a sink that keeps every update and signals each on a channel.
type recorder struct {
	mu      sync.Mutex
	updates []Update
	got     chan Update
}

func newRecorder() *recorder { return &recorder{got: make(chan Update, 1000)} }

func (c *recorder) sink(u Update) {
	c.mu.Lock()
	c.updates = append(c.updates, u)
	c.mu.Unlock()
	c.got <- u
}

func (c *recorder) all() []Update {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Update(nil), c.updates...)
}

// next waits for the sink's next update.
func (c *recorder) next(t *testing.T) Update {
	t.Helper()
	select {
	case u := <-c.got:
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("no update reached the sink")
		return Update{}
	}
}

// A cold answer goes through the stages in order; each step, waited for
// before the next, reaches the sink with more progress than the one
// before, and the last update is Done with Total equal to Progress.
func TestStagesInOrder(t *testing.T) {
	rec := newRecorder()
	r := New(rec.sink, &Options{Interval: time.Millisecond})
	var body io.Reader
	steps := []struct {
		do   func()
		want string
	}{
		{r.Resolving, "resolving the version"},
		{func() { body = r.Body(strings.NewReader(strings.Repeat("x", 3000)), 3000) }, "fetching 0 B of 3.0 kB"},
		{func() { io.ReadFull(body, make([]byte, 1200)) }, "fetching 1.2 kB of 3.0 kB"},
		{func() { io.Copy(io.Discard, body) }, "fetching 3.0 kB of 3.0 kB"},
		{r.FileRead, "reading 1 file"},
		{r.FileRead, "reading 2 files"},
		{r.Finish, "done: 3.0 kB fetched in 1 download, 2 files read"},
	}
	last := 0.0
	for _, step := range steps {
		step.do()
		u := rec.next(t)
		if u.Message() != step.want || u.Progress <= last {
			t.Errorf("update %q (progress %v after %v), want %q with more progress", u.Message(), u.Progress, last, step.want)
		}
		last = u.Progress
	}
	final := rec.all()[len(steps)-1]
	if final.Stage != Done || final.Total != final.Progress {
		t.Errorf("last update %+v: want stage Done, Total = Progress", final)
	}
	r.FileRead() // after Finish: dropped
	r.Finish()
	if n := len(rec.all()); n != len(steps) {
		t.Errorf("%d updates after Finish, want %d", n, len(steps))
	}
}

// However fast the work reports, the sink gets at most one update per
// interval, plus the last, which is never dropped.
func TestRateLimited(t *testing.T) {
	rec := newRecorder()
	const interval = 2 * time.Millisecond
	r := New(rec.sink, &Options{Interval: interval})
	start := time.Now()
	r.Resolving()
	body := r.Body(bytes.NewReader(make([]byte, 1<<20)), 1<<20)
	buf := make([]byte, 16)
	for {
		if _, err := body.Read(buf); err == io.EOF {
			break
		}
	}
	// Files are read until the sink has had a few updates: the flood
	// lasts several intervals however the goroutines are scheduled.
	files := 0
	for len(rec.got) < 3 {
		r.FileRead()
		files++
	}
	r.Finish()
	elapsed := time.Since(start)
	got := rec.all()
	if limit := int(elapsed/interval) + 2; len(got) > limit {
		t.Errorf("%d updates in %v, want at most %d (one per %v and the last)", len(got), elapsed, limit, interval)
	}
	t.Logf("%d updates reached the sink in %v, of %d reported", len(got), elapsed, 1<<20/16+files+1)
	final := got[len(got)-1]
	if final.Stage != Done || final.Files != files || final.Bytes != 1<<20 {
		t.Errorf("last update %+v, want Done with %d files and %d bytes", final, files, 1<<20)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Progress <= got[i-1].Progress {
			t.Errorf("progress %v after %v", got[i].Progress, got[i-1].Progress)
		}
	}
}

// A sink that never returns holds up neither the work nor, beyond
// FinishWait, its end.
func TestStuckSinkBlocksNothing(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{}, 1)
	r := New(func(Update) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
	}, &Options{Interval: time.Millisecond, FinishWait: 10 * time.Millisecond})
	finished := make(chan struct{})
	go func() {
		r.Resolving()
		<-entered // the sink holds the first update
		for range 1000 {
			r.FileRead()
		}
		r.Finish()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("the work waited for a stuck sink")
	}
}

// Without a reporter, or with nothing reported, nothing is sent.
func TestSilent(t *testing.T) {
	var none *Reporter
	none.Resolving()
	none.FileRead()
	none.Finish()
	src := strings.NewReader("x")
	if none.Body(src, 1) != io.Reader(src) {
		t.Error("a nil Reporter wraps the body")
	}
	if FromContext(context.Background()) != nil {
		t.Error("FromContext of a bare context is not nil")
	}
	rec := newRecorder()
	r := New(rec.sink, nil)
	if FromContext(NewContext(context.Background(), r)) != r {
		t.Error("FromContext does not return the context's Reporter")
	}
	r.Finish() // nothing reported: a warm answer
	r.Resolving()
	r.Finish()
	if got := rec.all(); len(got) != 0 {
		t.Errorf("sent %v, want nothing", got)
	}
}

func TestMessage(t *testing.T) {
	tests := []struct {
		u    Update
		want string
	}{
		{Update{Stage: Resolving}, "resolving the version"},
		{Update{Stage: Fetching, Bytes: 512, Latest: 512, Downloads: 1}, "fetching 512 B"},
		{Update{Stage: Fetching, Bytes: 34_000, Latest: 34_000, LatestSize: 1_234_567, Downloads: 1}, "fetching 34 kB of 1.2 MB"},
		{Update{Stage: Fetching, Bytes: 2_000_000, Latest: 999_499, LatestSize: 999_500, Downloads: 3}, "fetching 999 kB of 1.0 MB (download 3)"},
		{Update{Stage: Fetching, Bytes: 2_500_000_000, Latest: 2_500_000_000, Downloads: 1}, "fetching 2.5 GB"},
		{Update{Stage: Reading, Files: 1}, "reading 1 file"},
		{Update{Stage: Reading, Files: 85}, "reading 85 files"},
		{Update{Stage: Done}, "done"},
		{Update{Stage: Done, Files: 4}, "done: 4 files read"},
		{Update{Stage: Done, Bytes: 45_000, Downloads: 2, Files: 1}, "done: 45 kB fetched in 2 downloads, 1 file read"},
	}
	for _, tt := range tests {
		if got := tt.u.Message(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.u, got, tt.want)
		}
	}
}

// While fetching, the message follows the download begun last: its bytes
// and its length, when it announced one; the bytes of every download count
// in the total fetched.
func TestLatestDownload(t *testing.T) {
	rec := newRecorder()
	r := New(rec.sink, &Options{Interval: time.Millisecond})
	first := r.Body(strings.NewReader("0123456789"), 10)
	if u := rec.next(t); u.Message() != "fetching 0 B of 10 B" {
		t.Errorf("first download begun: %q", u.Message())
	}
	second := r.Body(strings.NewReader("abc"), -1)
	if u := rec.next(t); u.Message() != "fetching 0 B (download 2)" {
		t.Errorf("second download begun: %q", u.Message())
	}
	io.Copy(io.Discard, first)
	if u := rec.next(t); u.Message() != "fetching 0 B (download 2)" || u.Bytes != 10 {
		t.Errorf("first download read: %q, %d bytes in all", u.Message(), u.Bytes)
	}
	io.Copy(io.Discard, second)
	if u := rec.next(t); u.Message() != "fetching 3 B (download 2)" || u.Bytes != 13 {
		t.Errorf("second download read: %q, %d bytes in all", u.Message(), u.Bytes)
	}
	r.Finish()
	if u := rec.next(t); u.Message() != "done: 13 B fetched in 2 downloads" {
		t.Errorf("last: %q", u.Message())
	}
}
