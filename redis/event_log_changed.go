package redis

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

// Changed returns a channel closed at the next Append to the log of name
// by any instance, or earlier: when Redis confirms the EventLog's
// subscription (the first time, and after a reconnection), and at Close.
// A channel taken after Close is never closed.
func (l *EventLog) Changed(name string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return make(chan struct{})
	}
	if l.ps == nil {
		l.ps = l.b.client.Subscribe(context.Background()) // no channel yet: connects in listen
		l.done = make(chan struct{})
		go l.listen(l.ps, l.done)
	}
	c := l.waits[name]
	if c == nil {
		c = make(chan struct{})
		l.waits[name] = c
	}
	return c
}

// listen subscribes ps to the channel of appends and wakes the readers
// of each type appended to until ps is closed.
func (l *EventLog) listen(ps *goredis.PubSub, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	err := ps.Subscribe(ctx, l.notify)
	cancel()
	if err != nil {
		// go-redis subscribes again when it reconnects.
		l.b.opts.Logger.Warn("mcp/redis: subscribing to event log appends failed; it is retried when Redis is reachable", "channel", l.notify, "error", err)
	}
	for m := range ps.ChannelWithSubscriptions() {
		switch m := m.(type) {
		case *goredis.Subscription:
			if m.Kind == "subscribe" {
				// Appends published while unsubscribed were missed:
				// every reader reads again.
				l.wake("", true)
			}
		case *goredis.Message:
			if len(m.Payload) <= maxNameBytes {
				l.wake(m.Payload, false)
			}
		}
	}
}

// wake closes the channel of name, or every channel.
func (l *EventLog) wake(name string, all bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if all {
		for n, c := range l.waits {
			close(c)
			delete(l.waits, n)
		}
		return
	}
	if c := l.waits[name]; c != nil {
		close(c)
		delete(l.waits, name)
	}
}

// Close ends the EventLog's subscription and closes the channels Changed
// handed out; Backend.Close does too. Append and Read go on working (they
// use the client, which the caller owns).
func (l *EventLog) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	ps, done := l.ps, l.done
	l.mu.Unlock()
	l.b.forgetLog(l)
	l.wake("", true)
	if ps == nil {
		return nil
	}
	err := ps.Close()
	<-done
	return err
}
