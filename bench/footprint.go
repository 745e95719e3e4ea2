package bench

import (
	"io"
	"runtime"
	"time"
)

// A Footprint is what each of a set of live sessions costs the process.
type Footprint struct {
	// HeapBytes is live heap per session.
	HeapBytes float64
	// StackBytes is goroutine stack memory per session.
	StackBytes float64
	// Goroutines is goroutines per session.
	Goroutines float64
}

// Sub returns f minus g, item by item.
func (f Footprint) Sub(g Footprint) Footprint {
	return Footprint{f.HeapBytes - g.HeapBytes, f.StackBytes - g.StackBytes, f.Goroutines - g.Goroutines}
}

// usage is a snapshot of the process's live heap, stacks and goroutines.
type usage struct {
	heap, stack uint64
	goroutines  int
}

// settle waits until the number of goroutines stops changing (at most 2s),
// then collects garbage twice and takes a snapshot.
func settle() usage {
	deadline := time.Now().Add(2 * time.Second)
	last, same := runtime.NumGoroutine(), 0
	for same < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		n := runtime.NumGoroutine()
		if n == last {
			same++
		} else {
			last, same = n, 0
		}
	}
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return usage{heap: m.HeapAlloc, stack: m.StackInuse, goroutines: runtime.NumGoroutine()}
}

// MeasureSessions opens n sessions with open, calls idle (if not nil) to
// let them go idle (for example to close idle HTTP connections), and
// returns what each costs and the sessions, which the caller closes. The
// first error stops it; the sessions opened so far are closed.
func MeasureSessions(n int, open func() (io.Closer, error), idle func()) (Footprint, closers, error) {
	sessions := make(closers, 0, n)
	before := settle()
	for range n {
		c, err := open()
		if err != nil {
			sessions.Close()
			return Footprint{}, nil, err
		}
		sessions = append(sessions, c)
	}
	if idle != nil {
		idle()
	}
	after := settle()
	f := Footprint{
		HeapBytes:  (float64(after.heap) - float64(before.heap)) / float64(n),
		StackBytes: (float64(after.stack) - float64(before.stack)) / float64(n),
		Goroutines: float64(after.goroutines-before.goroutines) / float64(n),
	}
	runtime.KeepAlive(sessions)
	return f, sessions, nil
}
