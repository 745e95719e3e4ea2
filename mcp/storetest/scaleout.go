package storetest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestScaleOut runs the multi-instance scenarios against clusters of three
// instances behind a round-robin proxy: in both protocol eras, clients see
// one server. newCluster is called once per cluster, with fresh shared
// storage, and returns the backends of its instance i.
func TestScaleOut(t *testing.T, newCluster func(t *testing.T) func(i int) Backends) {
	newBackends := func(t *testing.T) func(testing.TB, int) Backends {
		f := newCluster(t)
		return func(_ testing.TB, i int) Backends { return f(i) }
	}
	t.Run("Legacy", func(t *testing.T) { testLegacy(t, StartCluster(t, newBackends(t), nil)) })
	t.Run("LegacyJSONResponse", func(t *testing.T) {
		testLegacy(t, StartCluster(t, newBackends(t), &ClusterOptions{JSONResponse: true}))
	})
	t.Run("LegacyWire", func(t *testing.T) { testLegacyWire(t, StartCluster(t, newBackends(t), nil)) })
	t.Run("Modern", func(t *testing.T) { testModern(t, StartCluster(t, newBackends(t), nil)) })
	t.Run("LegacyGETStreamMoved", func(t *testing.T) {
		testGETMoved(t, StartCluster(t, newBackends(t), &ClusterOptions{JSONResponse: true}))
	})
}

func connect(t *testing.T, c *Cluster, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	opts.ProtocolVersion = version
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient("scaleout-test", "v1", opts).Connect(ctx, mcp.NewStreamableClientTransport(c.URL, nil))
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { _ = cs.Close() }) // at the end of the test: nothing left to check
	return cs
}

func answerV(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"v": "yes"}}, nil
}

func textOf(r *mcp.CallToolResult) string {
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// changeOnEach adds a tool on each instance in turn and waits until got
// reports the change; a change is retried while the client's stream may
// not be open yet (delivery is at most once).
func changeOnEach(t *testing.T, c *Cluster, got <-chan struct{}) {
	t.Helper()
	for i, s := range c.Servers {
		ok := false
		for try := 0; try < 25 && !ok; try++ {
			s.AddTools(&mcp.ServerTool{Tool: &mcp.Tool{Name: fmt.Sprintf("extra-%d-%d", i, try), InputSchema: []byte(`{"type":"object"}`)},
				Handler: func(context.Context, *mcp.ServerSession, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{}, nil
				}})
			select {
			case <-got:
				ok = true
			case <-time.After(200 * time.Millisecond):
			}
		}
		if !ok {
			t.Fatalf("a tool added on instance %d never reached the client's stream", i)
		}
		drain(got)
	}
}

func drain(ch <-chan struct{}) {
	for {
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

// testLegacy: initialize on one instance and calls on the others; list
// changes made on any instance reach the GET stream, wherever it is held;
// elicitation asked on one instance and answered through another.
func testLegacy(t *testing.T, c *Cluster) {
	ctx := context.Background()
	changed := make(chan struct{}, 64)
	cs := connect(t, c, "2025-11-25", &mcp.ClientOptions{
		ElicitationHandler: answerV,
		ToolListChangedHandler: func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) {
			changed <- struct{}{}
		},
	})
	for i := range 6 {
		res, err := cs.CallTool(ctx, "echo", map[string]any{"text": fmt.Sprint(i)}, nil)
		if err != nil || textOf(res) != fmt.Sprint(i) {
			t.Fatalf("call %d: %+v, %v", i, res, err)
		}
	}
	changeOnEach(t, c, changed)
	for i := range 4 {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		res, err := cs.CallTool(cctx, "ask", map[string]any{"tag": fmt.Sprintf("legacy-%d", i)}, nil)
		cancel()
		if err != nil || textOf(res) != "yes" {
			t.Fatalf("elicitation %d: %+v, %v", i, res, err)
		}
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
}

// testModern: 2026-07-28 calls, a listen stream held by one instance
// hearing changes made on every instance, input-required retries verified
// by another instance than the one that minted the state, and a task
// created on one instance, polled and cancelled through others.
func testModern(t *testing.T, c *Cluster) {
	ctx := context.Background()
	changed := make(chan struct{}, 64)
	acked := make(chan struct{}, 1)
	cs := connect(t, c, "2026-07-28", &mcp.ClientOptions{
		ElicitationHandler: answerV,
		Capabilities:       &mcp.ClientCapabilities{Extensions: map[string]any{mcp.TasksExtension: map[string]any{}}},
		ToolListChangedHandler: func(context.Context, *mcp.ClientSession, *mcp.ToolListChangedParams) {
			changed <- struct{}{}
		},
		SubscriptionsAcknowledgedHandler: func(context.Context, *mcp.ClientSession, *mcp.SubscriptionsAcknowledgedParams) {
			acked <- struct{}{}
		},
	})
	for i := range 3 {
		res, err := cs.CallTool(ctx, "echo", map[string]any{"text": fmt.Sprint(i)}, nil)
		if err != nil || textOf(res) != fmt.Sprint(i) {
			t.Fatalf("call %d: %+v, %v", i, res, err)
		}
	}

	t.Run("InputRequiredRetry", func(t *testing.T) { modernInputRequiredRetry(t, c, cs) })
	t.Run("ListenAcrossInstances", func(t *testing.T) { modernListen(t, c, cs, acked, changed) })
	t.Run("TaskAcrossInstances", func(t *testing.T) { modernTask(t, c, cs) })
}

// modernInputRequiredRetry: each input-required call takes two rounds,
// and at least one retry is served (its requestState verified) by another
// instance than the one whose first round minted the state.
func modernInputRequiredRetry(t *testing.T, c *Cluster, cs *mcp.ClientSession) {
	ctx := context.Background()
	crossed := false
	for i := range 3 {
		tag := fmt.Sprintf("modern-%d", i)
		res, err := cs.CallTool(ctx, "ask", map[string]any{"tag": tag}, nil)
		if err != nil || textOf(res) != "yes" {
			t.Fatalf("input-required call %d: %+v, %v", i, res, err)
		}
		r := c.askRounds(tag)
		if len(r) != 2 {
			t.Fatalf("call %d ran %d rounds (%v), want 2", i, len(r), r)
		}
		crossed = crossed || r[0] != r[1]
	}
	if !crossed {
		t.Fatal("no retry was served by another instance than its first round")
	}
}

// modernListen: a listen stream held by one instance hears the tools list
// changes made on every instance (acked and changed are told by cs's
// handlers).
func modernListen(t *testing.T, c *Cluster, cs *mcp.ClientSession, acked, changed chan struct{}) {
	lctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.Listen(lctx, &mcp.SubscriptionsListenParams{Notifications: mcp.SubscriptionFilter{ToolsListChanged: true}})
		done <- err
	}()
	select {
	case <-acked:
	case <-time.After(5 * time.Second):
		t.Fatal("the listen stream was not acknowledged")
	}
	changeOnEach(t, c, changed)
	cancel()
	<-done
}

// modernTask: a task created on one instance is polled and cancelled
// through the others, and its handler sees the cancellation.
func modernTask(t *testing.T, c *Cluster, cs *mcp.ClientSession) {
	ctx := context.Background()
	_, task, err := cs.StartToolCall(ctx, "wait", nil, nil)
	if err != nil || task == nil {
		t.Fatalf("StartToolCall: %+v, %v", task, err)
	}
	for range 3 { // polled through every instance
		got, err := cs.GetTask(ctx, &mcp.GetTaskParams{TaskID: task.TaskID})
		if err != nil || got.Status != mcp.TaskStatusWorking {
			t.Fatalf("GetTask: %+v, %v", got, err)
		}
	}
	if _, err := cs.CancelTask(ctx, &mcp.CancelTaskParams{TaskID: task.TaskID}); err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	select {
	case id := <-c.cancelled:
		if id != task.TaskID {
			t.Fatalf("cancelled task %q, want %q", id, task.TaskID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the task's handler was not cancelled")
	}
	for range 3 {
		got, err := cs.GetTask(ctx, &mcp.GetTaskParams{TaskID: task.TaskID})
		if err != nil || got.Status != mcp.TaskStatusCancelled {
			t.Fatalf("GetTask after cancel: %+v, %v", got, err)
		}
	}
}

// testLegacyWire: exact exchanges with chosen instances: session state set
// on one instance used by another, Last-Event-ID resumption on another
// instance with exactly the missed events, DELETE seen by all, and bad
// session ids.
func testLegacyWire(t *testing.T, c *Cluster) {
	in := c.Instances
	sid := rawSession(t, in[0])

	// The log level set on instance 1 applies on instance 2.
	if x := raw(t, http.MethodPost, in[1], sid, nil, `{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`); x.status != http.StatusOK {
		t.Fatalf("logging/setLevel on instance 1: %+v", x)
	}
	call := raw(t, http.MethodPost, in[2], sid, nil, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"steps","arguments":{}}}`)
	if call.status != http.StatusOK {
		t.Fatalf("tools/call on instance 2: %+v", call)
	}
	var ids []string
	var logs int
	for _, ev := range call.events {
		ids = append(ids, ev.id)
		if strings.Contains(ev.data, `"notifications/message"`) {
			logs++
		}
	}
	if logs != 3 || len(call.events) != 5 { // priming, 3 log messages, response
		t.Fatalf("tools/call stream on instance 2: %d log messages in %+v, want 3 and a priming event and the response", logs, call.events)
	}

	t.Run("ResumeOnAnotherInstance", func(t *testing.T) {
		for _, resumeOn := range []int{0, 1} {
			x := raw(t, http.MethodGet, in[resumeOn], sid, map[string]string{"Last-Event-ID": ids[1]}, "")
			if x.status != http.StatusOK {
				t.Fatalf("resume on instance %d: %+v", resumeOn, x)
			}
			var got []string
			for _, ev := range x.events {
				got = append(got, ev.id+" "+ev.data)
			}
			var want []string
			for _, ev := range call.events[2:] {
				want = append(want, ev.id+" "+ev.data)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("resumed on instance %d:\n%s\nwant exactly the missed events:\n%s", resumeOn, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	})

	t.Run("LiveStreamResumedOnAnotherInstance", func(t *testing.T) { legacyLiveStreamResumedOnAnotherInstance(t, c, sid) })

	t.Run("OtherSessionsEventsNeverReplayed", func(t *testing.T) {
		other := rawSession(t, in[1])
		for i := range in {
			x := raw(t, http.MethodGet, in[i], other, map[string]string{"Last-Event-ID": ids[1]}, "")
			if x.status != http.StatusNotFound && x.status != http.StatusBadRequest || len(x.events) != 0 {
				t.Fatalf("another session's Last-Event-ID on instance %d: %+v", i, x)
			}
		}
	})

	t.Run("StateReadOncePerInstance", func(t *testing.T) { legacyStateReadOncePerInstance(t, c) })

	t.Run("BatchStateShared", func(t *testing.T) { legacyBatchStateShared(t, c) })

	t.Run("BadSessionIDs", func(t *testing.T) {
		for _, bad := range []string{"NOSUCHSESSION", sid + "x", "*", sid + ":events", "session:" + sid, "../" + sid} {
			for i := range in {
				x := raw(t, http.MethodPost, in[i], bad, nil, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
				if x.status != http.StatusNotFound {
					t.Fatalf("session id %q on instance %d: status %d, want 404", bad, i, x.status)
				}
			}
		}
	})

	t.Run("DeleteSeenByAll", func(t *testing.T) { legacyDeleteSeenByAll(t, c) })
}

// legacyStateReadOncePerInstance checks that each instance reads a
// session's state once, not on every request.
func legacyStateReadOncePerInstance(t *testing.T, c *Cluster) {
	in := c.Instances
	// Each instance reads a session's state from the store when it
	// first serves it, then serves it from its own copy (for up to a
	// second) until another instance announces a change.
	s := rawSession(t, in[0])
	loadsBefore, start := c.SessionLoads.Load(), time.Now()
	for i := range 30 {
		if x := raw(t, http.MethodPost, in[i%len(in)], s, nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i)); x.status != http.StatusOK {
			t.Fatalf("ping %d: %+v", i, x)
		}
	}
	// At most: once per instance, and again each second it took.
	want := int64(len(in) * (2 + int(time.Since(start)/time.Second)))
	if loads := c.SessionLoads.Load() - loadsBefore; loads > want || want >= 30 {
		t.Errorf("30 requests over %d instances in %v read the session store %d times, want at most %d", len(in), time.Since(start), loads, want)
	}
}

// legacyBatchStateShared checks that a 2025-03-26 batch saves the state
// it changes for the other instances.
func legacyBatchStateShared(t *testing.T, c *Cluster) {
	in := c.Instances
	// A 2025-03-26 batch that sets the log level on instance 1 is
	// stored and announced: instances 2 and 0, which served the
	// session before, then send no message below that level.
	s := rawSessionVersion(t, in[0], "2025-03-26")
	hdr := map[string]string{"MCP-Protocol-Version": "2025-03-26"}
	steps := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"steps","arguments":{}}}`
	countLogs := func(x rawExchange) int {
		n := strings.Count(x.body, `"notifications/message"`)
		for _, ev := range x.events {
			n += strings.Count(ev.data, `"notifications/message"`)
		}
		return n
	}
	if x := raw(t, http.MethodPost, in[2], s, hdr, steps); x.status != http.StatusOK || countLogs(x) != 3 {
		t.Fatalf("tools/call before the batch on instance 2: %d log messages in %+v, want 3", countLogs(x), x)
	}
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"error"}}]`
	x := raw(t, http.MethodPost, in[1], s, hdr, batch)
	if x.status != http.StatusOK || !strings.HasPrefix(strings.TrimSpace(x.body), "[") || strings.Contains(x.body, `"error"`+":{") {
		t.Fatalf("batch on instance 1: %+v", x)
	}
	id := 10
	for _, i := range []int{2, 0} {
		c.afterAnnounced(t, func() (bool, string) {
			id++
			call := strings.Replace(steps, `"id":3`, fmt.Sprintf(`"id":%d`, id), 1)
			x := raw(t, http.MethodPost, in[i], s, hdr, call)
			return x.status == http.StatusOK && countLogs(x) == 0,
				fmt.Sprintf("tools/call on instance %d after a batch set the level to error on instance 1: %d log messages in %+v, want none", i, countLogs(x), x)
		})
	}
}

// legacyDeleteSeenByAll checks that a session deleted on one instance is
// gone on every instance.
func legacyDeleteSeenByAll(t *testing.T, c *Cluster) {
	in := c.Instances
	s2 := rawSession(t, in[2])
	for i := range in {
		if x := raw(t, http.MethodPost, in[i], s2, nil, `{"jsonrpc":"2.0","id":4,"method":"ping"}`); x.status != http.StatusOK {
			t.Fatalf("ping on instance %d: %+v", i, x)
		}
	}
	if x := raw(t, http.MethodDelete, in[0], s2, nil, ""); x.status != http.StatusNoContent {
		t.Fatalf("DELETE on instance 0: %+v", x)
	}
	for i := range in {
		c.afterAnnounced(t, func() (bool, string) {
			x := raw(t, http.MethodPost, in[i], s2, nil, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
			return x.status == http.StatusNotFound, fmt.Sprintf("ping on instance %d after DELETE: status %d, want 404", i, x.status)
		})
	}
}

// propagation bounds how long a change made on one instance (a DELETE, a
// new log level) takes to reach the others' copies of a session: they
// normally get its announcement before the client's next request, and
// read the store again at least once a second anyway.
const propagation = 1500 * time.Millisecond

// afterAnnounced checks what a change announced by another instance (a
// DELETE, a new log level) must have done: at once when the instances'
// routers count the subscriptions a message reaches, since the request
// that made the change is then answered after every instance has
// acknowledged it; else eventually.
func (c *Cluster) afterAnnounced(t *testing.T, check func() (ok bool, msg string)) {
	t.Helper()
	if !c.counting {
		eventually(t, check)
		return
	}
	if ok, msg := check(); !ok {
		t.Fatal(msg + " (checked at once: the instances' routers count their subscriptions)")
	}
}

// eventually calls check until it reports true, failing the test with its
// message if that takes longer than propagation.
func eventually(t *testing.T, check func() (ok bool, msg string)) {
	t.Helper()
	start := time.Now()
	for {
		ok, msg := check()
		if ok {
			return
		}
		if time.Since(start) > propagation {
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openGET opens a session's GET stream and returns its events as they
// come; cancel ends it.
func openGET(t *testing.T, endpoint, sid string) (events <-chan sseEvent, cancel func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("GET on %s: %v %v", endpoint, resp, err)
	}
	ch := make(chan sseEvent, 16)
	go func() {
		defer resp.Body.Close()
		var ev sseEvent
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "id:"); ok {
				ev.id = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "data:"); ok {
				ev.data += strings.TrimSpace(v)
			} else if line == "" && ev.data != "" {
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return ch, cancel
}

// testGETMoved: the client's GET stream was on instance 0, then the
// client opened it anew on instance 1; an elicitation asked by a handler
// on instance 0 (JSON responses: it must go on the GET stream) reaches
// the client on instance 1, and the answer POSTed to instance 2 reaches
// the handler.
func testGETMoved(t *testing.T, c *Cluster) {
	in := c.Instances
	sid := rawSession(t, in[0])
	_, stop0 := openGET(t, in[0], sid)
	time.Sleep(100 * time.Millisecond)
	stop0()
	time.Sleep(100 * time.Millisecond)
	events, stop1 := openGET(t, in[1], sid)
	defer stop1()
	time.Sleep(100 * time.Millisecond)

	result := make(chan rawExchange, 1)
	go func() {
		result <- raw(t, http.MethodPost, in[0], sid, nil, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"ask","arguments":{"tag":"moved"}}}`)
	}()
	var req struct {
		ID     any    `json:"id"`
		Method string `json:"method"`
	}
	select {
	case ev := <-events:
		if err := json.Unmarshal([]byte(ev.data), &req); err != nil || req.Method != "elicitation/create" {
			t.Fatalf("GET stream on instance 1 got %q, want elicitation/create", ev.data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the elicitation never reached the GET stream on instance 1")
	}
	id, _ := json.Marshal(req.ID)
	answer := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept","content":{"v":"moved-yes"}}}`
	if x := raw(t, http.MethodPost, in[2], sid, nil, answer); x.status != http.StatusAccepted {
		t.Fatalf("answer on instance 2: %+v", x)
	}
	select {
	case x := <-result:
		if x.status != http.StatusOK || !strings.Contains(x.body, "moved-yes") {
			t.Fatalf("tools/call on instance 0: %+v", x)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler on instance 0 never got the answer")
	}
}

// legacyLiveStreamResumedOnAnotherInstance checks that a stream still running on one instance is
// resumed on another, waking on new events rather than polling when the
// event store can wait.
func legacyLiveStreamResumedOnAnotherInstance(t *testing.T, c *Cluster, sid string) {
	in := c.Instances
	// The call pauses 1.5 s while the client resumes on instance 1.
	// With an EventWaiter, instance 1 reads the event store once,
	// then once each time the stream grows (twice; one read of
	// slack); else it reads it at an interval growing to 800 ms.
	x := raw(t, http.MethodPost, in[0], sid, nil, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pause","arguments":{"ms":1500}}}`)
	if x.status != http.StatusOK || len(x.events) != 2 || !strings.Contains(x.events[1].data, "before") {
		t.Fatalf("tools/call pause on instance 0: %+v, want the priming event and the first log message", x)
	}
	readsBefore := c.EventReads.Load()
	y := raw(t, http.MethodGet, in[1], sid, map[string]string{"Last-Event-ID": x.events[1].id}, "")
	reads, maxReads := c.EventReads.Load()-readsBefore, int64(4)
	if !c.EventWaits {
		maxReads = 10 // 50 ms doubling to 800 ms: about 7 in 1.5 s
	}
	if reads > maxReads {
		t.Errorf("resuming a stream paused 1.5 s on another instance read the event store %d times, want at most %d (EventWaiter: %v)", reads, maxReads, c.EventWaits)
	}
	t.Logf("event store reads while resuming: %d (EventWaiter: %v)", reads, c.EventWaits)
	var datas []string
	for _, ev := range y.events {
		if ev.data != "" {
			datas = append(datas, ev.data)
		}
	}
	if y.status != http.StatusOK || len(datas) != 2 || !strings.Contains(datas[0], `"after"`) || !strings.Contains(datas[1], `"resumed"`) {
		t.Fatalf("resumed on instance 1 while instance 0 runs the call: %+v, want the second log message and the result", y)
	}
}
