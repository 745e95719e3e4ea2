package mcp

import (
	"sync"
	"time"
)

// workerIdle is how long a handler worker waits for another job before
// it exits.
const workerIdle = 2 * time.Second

// A workerPool runs jobs on goroutines that outlive one job: the
// handlers of resumable legacy requests, which run apart from the
// goroutine serving their HTTP request (servePOST). A new
// goroutine starts with a small stack and grows it by copying, which took
// about a tenth of an echo tool call's server CPU in the scale-out
// benchmark of the bench module; a worker reuses the stack it grew,
// as net/http's goroutine of a kept-alive connection does. A job goes to an idle worker if there is one, and to
// a new worker otherwise, so jobs never wait; a worker idle for
// workerIdle exits, and all idle ones exit when the pool is stopped.
// The zero value is ready to use.
type workerPool struct {
	jobs     chan func() // unbuffered: a send succeeds only to an idle worker
	initOnce sync.Once
	stopOnce sync.Once
	stopped  chan struct{}
}

func (p *workerPool) init() {
	p.initOnce.Do(func() {
		p.jobs = make(chan func())
		p.stopped = make(chan struct{})
	})
}

// run runs job on a worker.
func (p *workerPool) run(job func()) {
	p.init()
	select {
	case p.jobs <- job:
	default:
		go p.work(job)
	}
}

// work runs job, then the jobs it is handed, until it has been idle for
// workerIdle or the pool stops.
func (p *workerPool) work(job func()) {
	job()
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case job := <-p.jobs:
			job()
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		case <-p.stopped:
			return
		}
	}
}

// stop makes the idle workers exit, and the busy ones once their job
// returns.
func (p *workerPool) stop() {
	p.init()
	p.stopOnce.Do(func() { close(p.stopped) })
}
