package main

import (
	"io"
	"net"
	"os"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"
)

// testRedis is the Redis of the team tests, which a test can stop and
// start again: a miniredis (Close, Restart), or, with GOMCP_REDIS_ADDR set
// as .ci/redis.sh does, that real Redis (flushed first) behind a TCP proxy
// the test takes down and brings back on the same address.
type testRedis struct {
	addr  string // what clients dial
	m     *miniredis.Miniredis
	proxy *tcpProxy
}

func newTestRedis(t testing.TB) *testRedis {
	t.Helper()
	if real := os.Getenv("GOMCP_REDIS_ADDR"); real != "" {
		c := goredis.NewClient(&goredis.Options{Addr: real})
		defer c.Close()
		if err := c.FlushDB(t.Context()).Err(); err != nil {
			t.Fatalf("flushing %s: %v", real, err)
		}
		p := startProxy(t, real)
		return &testRedis{addr: p.addr, proxy: p}
	}
	m := miniredis.RunT(t)
	return &testRedis{addr: m.Addr(), m: m}
}

// url is the --redis value of the test's instances.
func (r *testRedis) url() string { return "redis://" + r.addr + "/0" }

// stop takes Redis away from the instances.
func (r *testRedis) stop() {
	if r.m != nil {
		r.m.Close()
		return
	}
	r.proxy.down()
}

// start brings it back on the same address, with what it held.
func (r *testRedis) start(t testing.TB) {
	t.Helper()
	if r.m != nil {
		if err := r.m.Restart(); err != nil {
			t.Fatalf("restarting miniredis: %v", err)
		}
		return
	}
	r.proxy.up(t)
}

// tcpProxy forwards connections to target until taken down.
type tcpProxy struct {
	addr, target string

	mu    sync.Mutex
	l     net.Listener
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func startProxy(t testing.TB, target string) *tcpProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{addr: l.Addr().String(), target: target, conns: map[net.Conn]struct{}{}}
	p.serve(l)
	t.Cleanup(func() {
		p.down()
		p.wg.Wait()
	})
	return p
}

// down closes the listener and every forwarded connection.
func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.l != nil {
		p.l.Close()
		p.l = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// up listens again on the same address.
func (p *tcpProxy) up(t testing.TB) {
	t.Helper()
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("listening again on %s: %v", p.addr, err)
	}
	p.serve(l)
}

func (p *tcpProxy) serve(l net.Listener) {
	p.mu.Lock()
	p.l = l
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.forward(c)
		}
	}()
}

// forward copies between c and a new connection to the target, both ways,
// until either side closes or the proxy is taken down.
func (p *tcpProxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	p.wg.Add(2)
	pipe := func(dst, src net.Conn) {
		defer p.wg.Done()
		_, _ = io.Copy(dst, src)
		dst.Close()
		src.Close()
		p.mu.Lock()
		delete(p.conns, dst)
		delete(p.conns, src)
		p.mu.Unlock()
	}
	go pipe(up, c)
	go pipe(c, up)
}
