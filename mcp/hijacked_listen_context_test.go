package mcp

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

type listenValueKey struct{}

func TestListenContext(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), listenValueKey{}, "v"))
	st := &responseStream{}
	ctx := newListenContext(parent, st)
	cancelParent() // the request's cancellation does not reach the stream
	if ctx.Err() != nil {
		t.Fatalf("Err = %v before cancel, want nil", ctx.Err())
	}
	if got := ctx.Value(listenValueKey{}); got != "v" {
		t.Errorf("Value(request key) = %v, want v", got)
	}
	if got := streamFromContext(ctx); got != st {
		t.Errorf("streamFromContext = %p, want %p", got, st)
	}
	if _, ok := ctx.Deadline(); ok {
		t.Error("Deadline reports one")
	}

	// Derived contexts are cancelled with it, without a goroutine each.
	before := runtime.NumGoroutine()
	var derived []context.Context
	for range 100 {
		d, cancel := context.WithCancel(ctx)
		defer cancel()
		derived = append(derived, d)
	}
	if n := runtime.NumGoroutine() - before; n > 10 {
		t.Errorf("%d goroutines started for 100 derived contexts", n)
	}
	ran := make(chan struct{})
	context.AfterFunc(ctx, func() { close(ran) })
	stopped := make(chan struct{})
	stop := context.AfterFunc(ctx, func() { close(stopped) })
	if !stop() {
		t.Error("stop of a pending AfterFunc reported false")
	}

	ctx.cancel()
	ctx.cancel() // once
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("Err = %v after cancel, want context.Canceled", ctx.Err())
	}
	for _, d := range derived {
		select {
		case <-d.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("a derived context was not cancelled")
		}
	}
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("AfterFunc did not run")
	}
	select {
	case <-stopped:
		t.Error("a stopped AfterFunc ran")
	case <-time.After(50 * time.Millisecond):
	}
	late := make(chan struct{})
	if context.AfterFunc(ctx, func() { close(late) })() {
		t.Error("stop after cancel reported true")
	}
	select {
	case <-late:
	case <-time.After(5 * time.Second):
		t.Fatal("AfterFunc on a cancelled context did not run")
	}
}

// TestListenStreamStateSize keeps what an open listen stream holds per
// stream within the allocation size classes it fits today: a field more
// moves responseStream or listener to the next class (288 bytes).
func TestListenStreamStateSize(t *testing.T) {
	for _, c := range []struct {
		name string
		size uintptr
		max  uintptr
	}{
		{"responseStream", unsafe.Sizeof(responseStream{}), 256},
		{"listener", unsafe.Sizeof(listener{}), 256},
		{"listenContext", unsafe.Sizeof(listenContext{}), 64},
	} {
		if c.size > c.max {
			t.Errorf("%s is %d bytes, want at most %d (one per open stream)", c.name, c.size, c.max)
		}
	}
}

// List changes on hijacked listen streams are one encoding spliced around
// each stream's subscription id: every stream gets exact bytes with its
// own id, for each list-change method, every time.
func TestHijackedListenListChangedSpliced(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	addPrompt := func(name string) {
		server.AddPrompts(&ServerPrompt{Prompt: &Prompt{Name: name}, Handler: func(context.Context, *ServerSession, *GetPromptParams) (*GetPromptResult, error) {
			return &GetPromptResult{}, nil
		}})
	}
	addPrompt("first") // the server has prompts, so it honours their list changes
	open := func(id string) *wireStream {
		ws := openWire(t, ts, listenRequestWith("HTTP/1.1", id, `"notifications":{"toolsListChanged":true,"promptsListChanged":true}`))
		ws.chunkWith(NotificationSubscriptionsAcknowledged)
		return ws
	}
	ids := []string{`7`, `"s\"1"`}
	streams := []*wireStream{open(ids[0]), open(ids[1])}
	waitUntil(t, func() bool { return h.Stats().ListenStreams == 2 && hijackedCount(h) == 2 })
	time.Sleep(20 * time.Millisecond) // both listeners write directly
	changes := []struct {
		method string
		change func(name string)
	}{
		{NotificationToolListChanged, func(name string) {
			server.AddTools(&ServerTool{Tool: &Tool{Name: name, InputSchema: objectSchema()}, Handler: nopToolHandler})
		}},
		{NotificationPromptListChanged, addPrompt},
		{NotificationToolListChanged, func(name string) { server.RemoveTools(name) }},
	}
	for round, c := range changes {
		c.change("t0")
		for i, ws := range streams {
			ev := ws.chunkWith(c.method)
			want := "event: message\ndata: " + `{"jsonrpc":"2.0","method":"` + c.method + `","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":` + ids[i] + `}}}` + "\n\n"
			if !strings.HasSuffix(ev, want) {
				t.Errorf("round %d, stream %d:\n got %q\nwant %q", round, i, ev, want)
			}
		}
	}
}

// A hijacked legacy GET stream written directly keeps no encoding buffers
// of its own between events: they come from a pool.
func TestHijackedGETStreamKeepsNoBuffers(t *testing.T) {
	server, h, ts, _ := newHTTPTest(t, nil, nil)
	sid := legacySession(t, ts)
	ws := openWire(t, ts, getRequest(sid, ""))
	waitUntil(t, func() bool { return standaloneAttached(h.session(sid)) })
	for i := range 3 {
		server.AddTools(&ServerTool{Tool: &Tool{Name: fmt.Sprintf("t%d", i), InputSchema: objectSchema()}, Handler: nopToolHandler})
		ev := ws.chunkWith(NotificationToolListChanged)
		if !strings.Contains(ev, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}`) {
			t.Fatalf("event %d: %q", i, ev)
		}
	}
	sess := h.session(sid)
	sess.mu.Lock()
	st := sess.standalone
	sess.mu.Unlock()
	st.mu.Lock()
	kept := cap(st.buf) + cap(st.evbuf)
	st.mu.Unlock()
	if kept != 0 {
		t.Errorf("the stream keeps %d bytes of encoding buffers", kept)
	}
}
