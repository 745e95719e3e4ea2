package jsonrpc2

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"testing"
)

// pushEnd is one end of an in-memory PushStream pair: Write hands the
// message straight to the other end's deliver function.
type pushEnd struct {
	mu      sync.Mutex
	deliver func(Message, error)
	peer    *pushEnd
	closed  bool
}

func newPushPair() (*pushEnd, *pushEnd) {
	a, b := &pushEnd{}, &pushEnd{}
	a.peer, b.peer = b, a
	return a, b
}

func (p *pushEnd) Receive(deliver func(Message, error)) {
	p.mu.Lock()
	p.deliver = deliver
	p.mu.Unlock()
}

func (p *pushEnd) Read(context.Context) (Message, error) {
	panic("Read called on a PushStream")
}

func (p *pushEnd) Write(_ context.Context, msg Message) error {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return ErrClosed
	}
	p.peer.mu.Lock()
	deliver := p.peer.deliver
	p.peer.mu.Unlock()
	deliver(msg, nil)
	return nil
}

func (p *pushEnd) Close() error {
	for _, end := range []*pushEnd{p, p.peer} {
		end.mu.Lock()
		was := end.closed
		end.closed = true
		deliver := end.deliver
		end.mu.Unlock()
		if !was && deliver != nil {
			deliver(nil, ErrClosed)
		}
	}
	return nil
}

func TestPushStreamConnHasNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	var conns []*Conn
	for range 50 {
		a, b := newPushPair()
		server := NewConn(a, &ConnOptions{Handler: testHandler(nil, nil)})
		client := NewConn(b, nil)
		res, err := client.Call(context.Background(), "echo", json.RawMessage(`{"x":1}`))
		if err != nil || string(res) != `{"x":1}` {
			t.Fatalf("call over a push stream = %s, %v", res, err)
		}
		conns = append(conns, client, server)
	}
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
	for _, c := range conns {
		c.Close()
	}
	for _, c := range conns {
		if err := c.Wait(); err != nil {
			t.Errorf("Wait = %v", err)
		}
	}
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
}

func TestPushStreamCancellationAndClose(t *testing.T) {
	a, b := newPushPair()
	started := make(chan ID, 1)
	cancelled := make(chan ID, 1)
	server := NewConn(a, &ConnOptions{Handler: testHandler(nil, started)})
	client := NewConn(b, &ConnOptions{OnCancel: func(id ID) { cancelled <- id }})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := client.Call(ctx, "block", nil)
		errc <- err
	}()
	id := <-started
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Fatalf("cancelled call = %v", err)
	}
	if got := <-cancelled; got != id {
		t.Fatalf("OnCancel(%v), want %v", got, id)
	}
	server.CancelIncoming(id)
	client.Close()
	if err := server.Wait(); err != nil {
		t.Fatalf("server Wait after the peer closed = %v", err)
	}
}
