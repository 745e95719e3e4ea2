package redis_test

import (
	"io"
	"net"
	"sync"
	"testing"
)

// An outage is a TCP proxy in front of a Redis that the test can take
// down and bring back on the same address, as a Redis restart does. It
// stands in for miniredis's own Restart, which accepts connections before
// its commands are registered, so a client reconnecting at that moment
// is told SUBSCRIBE is an unknown command; a real Redis accepts
// SUBSCRIBE as soon as it listens.
type outage struct {
	t      *testing.T
	addr   string // the proxy's address, for clients
	target string // the Redis's address

	mu    sync.Mutex
	l     net.Listener
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func newOutage(t *testing.T, target string) *outage {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &outage{t: t, addr: l.Addr().String(), target: target, conns: map[net.Conn]struct{}{}}
	o.serve(l)
	t.Cleanup(func() {
		o.down()
		o.wg.Wait()
	})
	return o
}

// down closes the listener and every proxied connection.
func (o *outage) down() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.l != nil {
		o.l.Close()
		o.l = nil
	}
	for c := range o.conns {
		c.Close()
	}
}

// up listens again on the same address.
func (o *outage) up() {
	o.t.Helper()
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		o.t.Fatalf("listening again on %s: %v", o.addr, err)
	}
	o.serve(l)
}

func (o *outage) serve(l net.Listener) {
	o.mu.Lock()
	o.l = l
	o.mu.Unlock()
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			o.proxy(c)
		}
	}()
}

// proxy copies between c and a new connection to the target until either
// side closes.
func (o *outage) proxy(c net.Conn) {
	r, err := net.Dial("tcp", o.target)
	if err != nil {
		c.Close()
		return
	}
	o.mu.Lock()
	if o.l == nil { // taken down meanwhile
		o.mu.Unlock()
		c.Close()
		r.Close()
		return
	}
	o.conns[c], o.conns[r] = struct{}{}, struct{}{}
	o.mu.Unlock()
	end := func() {
		c.Close()
		r.Close()
		o.mu.Lock()
		delete(o.conns, c)
		delete(o.conns, r)
		o.mu.Unlock()
	}
	o.wg.Add(2)
	go func() { defer o.wg.Done(); _, _ = io.Copy(r, c); end() }()
	go func() { defer o.wg.Done(); _, _ = io.Copy(c, r); end() }()
}
