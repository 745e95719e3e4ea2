package jsonrpc2

import "sync"

// A signal is an event that happens once, such as a connection ending,
// that goroutines can wait for on a channel. The channel is made only when
// somebody asks for it: most connections end without anybody waiting, and
// an idle connection then carries no channel at all.
type signal struct {
	mu    sync.Mutex
	ch    chan struct{} // made by wait, closed by fire
	fired bool
}

// closedChan is the channel wait returns once the signal has fired and no
// channel was made before.
var closedChan = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// wait returns a channel closed when the signal fires.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		if s.fired {
			return closedChan
		}
		s.ch = make(chan struct{})
	}
	return s.ch
}

// fire makes the signal happen; later calls do nothing. It reports whether
// this call fired it.
func (s *signal) fire() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fired {
		return false
	}
	s.fired = true
	if s.ch != nil {
		close(s.ch)
	}
	return true
}

// hasFired reports whether the signal has happened.
func (s *signal) hasFired() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fired
}
