package mcp

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"
)

// goroutineID returns the id of the calling goroutine, from its stack
// trace's first line.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := bytes.Fields(buf)
	if len(f) < 2 {
		return ""
	}
	return string(f[1])
}

// Jobs never wait for one another: 50 jobs that each wait for all the
// others all run.
func TestWorkerPoolRunsJobsAtOnce(t *testing.T) {
	var p workerPool
	defer p.stop()
	const n = 50
	var started sync.WaitGroup
	started.Add(n)
	all := make(chan struct{})
	done := make(chan struct{}, n)
	for range n {
		p.run(func() {
			started.Done()
			<-all
			done <- struct{}{}
		})
	}
	started.Wait()
	close(all)
	for range n {
		<-done
	}
}

// A job that comes after another has finished runs on the same
// goroutine, whose stack has grown already.
func TestWorkerPoolReusesIdleWorker(t *testing.T) {
	var p workerPool
	defer p.stop()
	ids := make(chan string, 1)
	p.run(func() { ids <- goroutineID() })
	first := <-ids
	var second string
	// The worker is idle once it is back in its receive: retry until a
	// job finds it there.
	waitUntil(t, func() bool {
		p.run(func() { ids <- goroutineID() })
		second = <-ids
		return second == first
	})
}

// Stopping the pool ends its idle workers; a job run after stop still
// runs, and its worker then exits.
func TestWorkerPoolStopEndsWorkers(t *testing.T) {
	before := runtime.NumGoroutine()
	var p workerPool
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		p.run(func() { time.Sleep(time.Millisecond); wg.Done() })
	}
	wg.Wait()
	p.stop()
	wg.Add(1)
	p.run(wg.Done)
	wg.Wait()
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
}
