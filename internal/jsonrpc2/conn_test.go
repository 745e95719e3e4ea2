package jsonrpc2

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// echo answers "echo" with its params, "fail" with an *Error, and "block"
// by waiting until its context ends or release is closed.
func testHandler(release <-chan struct{}, started chan<- ID) Handler {
	return HandlerFunc(func(ctx context.Context, req *Request) (any, error) {
		switch req.Method {
		case "echo":
			return req.Params, nil
		case "fail":
			return nil, &Error{Code: 42, Message: "nope", Data: json.RawMessage(`{"why":"test"}`)}
		case "block":
			if started != nil {
				started <- req.ID
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-release:
				return "released", nil
			}
		}
		return nil, &Error{Code: CodeMethodNotFound, Message: "no " + req.Method}
	})
}

func connPair(t *testing.T, server, client *ConnOptions) (*Conn, *Conn) {
	t.Helper()
	a, b := NewPipe()
	s := NewConn(a, server)
	c := NewConn(b, client)
	t.Cleanup(func() { c.Close(); s.Close() })
	return s, c
}

func TestCallAndErrors(t *testing.T) {
	_, client := connPair(t, &ConnOptions{Handler: testHandler(nil, nil)}, nil)
	ctx := context.Background()
	res, err := client.Call(ctx, "echo", map[string]int{"n": 1})
	if err != nil || string(res) != `{"n":1}` {
		t.Fatalf("echo = %s, %v", res, err)
	}
	_, err = client.Call(ctx, "fail", nil)
	var werr *Error
	if !errors.As(err, &werr) || werr.Code != 42 || string(werr.Data) != `{"why":"test"}` {
		t.Fatalf("fail = %v, want *Error 42 with data", err)
	}
	_, err = client.Call(ctx, "missing", nil)
	if !errors.As(err, &werr) || werr.Code != CodeMethodNotFound {
		t.Fatalf("missing = %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	_, client := connPair(t, &ConnOptions{Handler: testHandler(nil, nil)}, nil)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf(`{"i":%d}`, i)
			res, err := client.Call(context.Background(), "echo", json.RawMessage(want))
			if err != nil || string(res) != want {
				t.Errorf("call %d = %s, %v", i, res, err)
			}
		}()
	}
	wg.Wait()
}

func TestCancellationBothWays(t *testing.T) {
	started := make(chan ID, 1)
	var server *Conn
	cancelled := make(chan ID, 1)
	server, client := connPair(t,
		&ConnOptions{Handler: testHandler(nil, started)},
		&ConnOptions{OnCancel: func(id ID) { cancelled <- id }})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := client.Call(ctx, "block", nil)
		errc <- err
	}()
	id := <-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", err)
	}
	if got := <-cancelled; got != id {
		t.Fatalf("OnCancel(%v), want %v", got, id)
	}
	// The receiving side cancels the handler's context by id, and sends
	// no response for it: a call reusing the connection sees only its own.
	server.CancelIncoming(id)
	waitFor(t, func() bool {
		server.mu.Lock()
		defer server.mu.Unlock()
		return len(server.incoming) == 0
	})
	if res, err := client.Call(context.Background(), "echo", json.RawMessage(`[7]`)); err != nil || string(res) != "[7]" {
		t.Fatalf("call after a cancellation = %s, %v", res, err)
	}
}

func TestCloseFailsPendingCalls(t *testing.T) {
	started := make(chan ID, 1)
	_, client := connPair(t, &ConnOptions{Handler: testHandler(nil, started)}, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := client.Call(context.Background(), "block", nil)
		errc <- err
	}()
	<-started
	client.Close()
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("pending call after Close: %v, want ErrClosed", err)
	}
	if _, err := client.Call(context.Background(), "echo", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v, want ErrClosed", err)
	}
}

func TestCloseWritesResponsesOfRequestsAlreadyRead(t *testing.T) {
	release := make(chan struct{})
	started := make(chan ID, 1)
	server, client := connPair(t, &ConnOptions{Handler: testHandler(release, started)}, nil)
	type result struct {
		res json.RawMessage
		err error
	}
	resc := make(chan result, 1)
	go func() {
		res, err := client.Call(context.Background(), "block", nil)
		resc <- result{res, err}
	}()
	<-started
	closed := make(chan struct{})
	go func() { server.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while a handler was still running")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-closed
	r := <-resc
	if r.err != nil || string(r.res) != `"released"` {
		t.Fatalf("response of in-flight request = %s, %v", r.res, r.err)
	}
}

func TestCloseTimeoutCancelsHandlers(t *testing.T) {
	started := make(chan ID, 1)
	server, client := connPair(t, &ConnOptions{Handler: testHandler(nil, started), CloseTimeout: 10 * time.Millisecond}, nil)
	go client.Call(context.Background(), "block", nil)
	<-started
	done := make(chan struct{})
	go func() { server.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not cancel a handler after CloseTimeout")
	}
}

func TestBusy(t *testing.T) {
	release := make(chan struct{})
	started := make(chan ID, 1)
	_, client := connPair(t, &ConnOptions{Handler: testHandler(release, started), MaxInFlight: 1}, nil)
	go client.Call(context.Background(), "block", nil)
	<-started
	_, err := client.Call(context.Background(), "echo", nil)
	var werr *Error
	if !errors.As(err, &werr) || !strings.Contains(werr.Message, ErrBusy.Error()) {
		t.Fatalf("over the in-flight bound: %v", err)
	}
	close(release)
}

// TestUnboundedNotCounted: requests of methods ConnOptions.Unbounded names
// are not counted against MaxInFlight; others still are.
func TestUnboundedNotCounted(t *testing.T) {
	release := make(chan struct{})
	started := make(chan ID, 2)
	unbounded := func(method string) bool { return method == "block" }
	_, client := connPair(t, &ConnOptions{Handler: testHandler(release, started), MaxInFlight: 1, Unbounded: unbounded}, nil)
	for range 2 {
		go client.Call(context.Background(), "block", nil)
		<-started
	}
	if _, err := client.Call(context.Background(), "echo", nil); err != nil {
		t.Fatalf("a call beside two unbounded ones with MaxInFlight 1: %v", err)
	}
	close(release)
}

// rawPeer drives a Conn over a real newline-delimited stream, so tests can
// send bytes no well-behaved peer would.
type rawPeer struct {
	w   io.WriteCloser
	r   *bufio.Reader
	out io.Closer
}

func newRawPeer(t *testing.T, opts *ConnOptions) (*rawPeer, *Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn := NewConn(NewLineStream(inR, outW, multiCloser{inR, outW}, &StreamOptions{MaxMessageSize: 1024}), opts)
	t.Cleanup(func() { inW.Close(); outR.Close(); conn.Close() })
	return &rawPeer{w: inW, r: bufio.NewReader(outR), out: outR}, conn
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	for _, c := range m {
		c.Close()
	}
	return nil
}

func (p *rawPeer) roundTrip(t *testing.T, line string) string {
	t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		t.Fatal(err)
	}
	got, err := p.r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(got, "\n")
}

func TestBadInputIsAnsweredAndConnectionSurvives(t *testing.T) {
	batches := false
	p, _ := newRawPeer(t, &ConnOptions{Handler: testHandler(nil, nil), AllowBatch: func() bool { return batches }})
	tests := []struct{ in, want string }{
		{`{oops`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`},
		{`{"jsonrpc":"2.0","id":5}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,`},
		{`{"jsonrpc":"2.0","id":6,"method":"nosuch"}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32601,`},
		{`{"jsonrpc":"2.0","id":7,"method":"echo","params":{"a":` + strings.Repeat("1", 2000) + `}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too large`},
		{`[{"jsonrpc":"2.0","id":8,"method":"echo"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches are not supported"}}`},
		{`{"jsonrpc":"2.0","id":9,"method":"echo","params":{"ok":true}}`, `{"jsonrpc":"2.0","id":9,"result":{"ok":true}}`},
	}
	for _, tt := range tests {
		if got := p.roundTrip(t, tt.in); !strings.HasPrefix(got, tt.want) {
			t.Errorf("sent %.60s\n got %s\nwant prefix %s", tt.in, got, tt.want)
		}
	}
	batches = true
	got := p.roundTrip(t, `[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":2,"method":"fail"}]`)
	want := `[{"jsonrpc":"2.0","id":1,"result":[1]},{"jsonrpc":"2.0","id":2,"error":{"code":42,"message":"nope","data":{"why":"test"}}}]`
	if got != want {
		t.Errorf("batch\n got %s\nwant %s", got, want)
	}
}

func TestPeerEOFEndsConnectionCleanly(t *testing.T) {
	p, conn := newRawPeer(t, &ConnOptions{Handler: testHandler(nil, nil)})
	p.w.Close()
	if err := conn.Wait(); err != nil {
		t.Fatalf("Wait after peer EOF = %v, want nil", err)
	}
}

func TestNoGoroutineLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 200 {
		a, b := NewPipe()
		s := NewConn(a, &ConnOptions{Handler: testHandler(nil, nil)})
		c := NewConn(b, nil)
		if _, err := c.Call(context.Background(), "echo", json.RawMessage(`{}`)); err != nil {
			t.Fatal(err)
		}
		c.Close()
		s.Wait()
	}
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			n := runtime.Stack(buf, true)
			t.Fatalf("condition not met in time; goroutines:\n%s", buf[:n])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCancelledRequestGetsNoResponse(t *testing.T) {
	started := make(chan ID, 1)
	p, conn := newRawPeer(t, &ConnOptions{Handler: testHandler(nil, started)})
	if _, err := io.WriteString(p.w, `{"jsonrpc":"2.0","id":"slow","method":"block"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	id := <-started
	conn.CancelIncoming(id)
	// The next line the peer reads must answer its next request, not the
	// cancelled one.
	if got := p.roundTrip(t, `{"jsonrpc":"2.0","id":2,"method":"echo","params":{}}`); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("after cancelling, peer read %s", got)
	}
}
