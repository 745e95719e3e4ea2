package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// WatchedURI is the resource every benchmark server offers for
// subscriptions; Notifier.UpdateResource announces a change of it.
const WatchedURI = "bench://watched"

// Notification kinds a fan-out benchmark delivers.
const (
	// ToolsChanged is notifications/tools/list_changed, sent to every
	// stream when the server's tool list changes.
	ToolsChanged = "notifications/tools/list_changed"
	// ResourceUpdated is notifications/resources/updated, sent to every
	// stream subscribed to WatchedURI.
	ResourceUpdated = "notifications/resources/updated"
)

// A Notifier is a Server that can announce changes to the clients that
// listen: the fan-out benchmarks make it send one notification and time
// its delivery to every open stream.
type Notifier interface {
	// ChangeTools changes the server's tool list, so that every listening
	// client is sent notifications/tools/list_changed.
	ChangeTools(ctx context.Context) error
	// UpdateResource announces a change of WatchedURI to its subscribers.
	// The error wraps ErrPending if the SDK has no way to do it.
	UpdateResource(ctx context.Context) error
}

// A StreamWatcher is one open notification stream of the SDK-neutral raw
// client: in the legacy era a session (initialize, optionally
// resources/subscribe of WatchedURI) with its GET stream open, in the
// 2026-07-28 era a subscriptions/listen request whose SSE response stays
// open. Each notification whose method the watcher waits for is reported
// to the current Round.
type StreamWatcher struct {
	raw   *RawClient
	resp  *http.Response
	index int
}

// OpenStream opens a notification stream to url in era for notification
// kind (ToolsChanged or ResourceUpdated), sending its requests through hc.
// It returns once the server has accepted the stream: in the legacy era
// when the GET is answered, in the 2026-07-28 era when the subscription's
// acknowledgement has arrived.
func OpenStream(ctx context.Context, url string, era Era, kind string, hc *http.Client, index int) (*StreamWatcher, error) {
	raw := &RawClient{URL: url, HTTP: hc, Era: era}
	if err := raw.Start(ctx); err != nil {
		return nil, err
	}
	w := &StreamWatcher{raw: raw, index: index}
	var err error
	if era == Modern {
		w.resp, err = w.listen(ctx, kind)
	} else {
		w.resp, err = w.getStream(ctx, kind)
	}
	if err != nil {
		raw.Close()
		return nil, err
	}
	return w, nil
}

// getStream subscribes to WatchedURI if kind asks for it, then opens the
// legacy GET stream.
func (w *StreamWatcher) getStream(ctx context.Context, kind string) (*http.Response, error) {
	if kind == ResourceUpdated {
		body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(w.raw.id()) +
			`,"method":"resources/subscribe","params":{"uri":"` + WatchedURI + `"}}`)
		resp, err := w.raw.post(ctx, "resources/subscribe", "", body)
		if err != nil {
			return nil, fmt.Errorf("resources/subscribe: %w", err)
		}
		if _, err := readResult(resp); err != nil {
			return nil, fmt.Errorf("resources/subscribe: %w", err)
		}
	}
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, w.raw.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("MCP-Protocol-Version", LegacyVersion)
	req.Header.Set("Mcp-Session-Id", w.raw.sessionID)
	resp, err := w.raw.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET stream: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		drain(resp)
		return nil, fmt.Errorf("GET stream: status %s", resp.Status)
	}
	return resp, nil
}

// listen opens a 2026-07-28 subscriptions/listen stream for kind and waits
// for its acknowledgement.
func (w *StreamWatcher) listen(ctx context.Context, kind string) (*http.Response, error) {
	filter := `{"toolsListChanged":true}`
	if kind == ResourceUpdated {
		filter = `{"resourceSubscriptions":["` + WatchedURI + `"]}`
	}
	body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(w.raw.id()) +
		`,"method":"subscriptions/listen","params":{"notifications":` + filter +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + ModernVersion +
		`","io.modelcontextprotocol/clientInfo":{"name":"` + ClientName + `","version":"1.0.0"}` +
		`,"io.modelcontextprotocol/clientCapabilities":{}}}}`)
	resp, err := w.raw.post(context.WithoutCancel(ctx), "subscriptions/listen", "", body)
	if err != nil {
		return nil, fmt.Errorf("subscriptions/listen: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		defer drain(resp)
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("subscriptions/listen: status %s: %s", resp.Status, msg)
	}
	return resp, nil
}

// Watch reads the stream until it ends, reporting every notification of
// kind to the Round that rounds holds at the time it arrives. In the
// 2026-07-28 era, ready is called once the subscription is acknowledged
// (in the legacy era, at once). Watch returns when the stream ends.
func (w *StreamWatcher) Watch(kind string, rounds *atomic.Pointer[Round], ready func()) {
	defer w.resp.Body.Close()
	if w.raw.Era != Modern {
		ready()
		ready = nil
	}
	r := bufio.NewReaderSize(w.resp.Body, 4096)
	pattern := []byte(`"method":"` + kind + `"`)
	ack := []byte(`"method":"notifications/subscriptions/acknowledged"`)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 5 && bytes.HasPrefix(line, []byte("data:")) {
			switch {
			case bytes.Contains(line, pattern):
				if round := rounds.Load(); round != nil {
					round.arrive(w.index, time.Now())
				}
			case ready != nil && bytes.Contains(line, ack):
				ready()
				ready = nil
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if ready != nil {
				ready() // never acknowledged: the opener sees no arrival
			}
			return
		}
	}
}

// Close ends the stream and the session.
func (w *StreamWatcher) Close() error {
	w.resp.Body.Close()
	return w.raw.Close()
}

// A Round is one delivery of a notification to n streams: it records when
// each stream received it, relative to the start of the round.
type Round struct {
	start   time.Time
	mu      sync.Mutex
	got     []time.Duration // by stream index; 0: not yet
	pending int
	done    chan struct{}
}

// NewRound starts a round for n streams at the current time.
func NewRound(n int) *Round {
	return &Round{start: time.Now(), got: make([]time.Duration, n), pending: n, done: make(chan struct{})}
}

func (r *Round) arrive(i int, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(r.got) || r.got[i] != 0 {
		return
	}
	r.got[i] = max(at.Sub(r.start), 1)
	r.pending--
	if r.pending == 0 {
		close(r.done)
	}
}

// Wait waits until every stream has the notification or ctx ends, and
// returns the delivery times of the streams that got it and how many did
// not.
func (r *Round) Wait(ctx context.Context) (latencies []time.Duration, missing int) {
	select {
	case <-r.done:
	case <-ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.got {
		if d == 0 {
			missing++
		} else {
			latencies = append(latencies, d)
		}
	}
	return latencies, missing
}

// Control paths a child server answers besides CPUPath; see withControl.
const (
	// NotifyToolsPath: POST makes the child's server change its tool list.
	NotifyToolsPath = "/control/tools"
	// NotifyResourcePath: POST makes the child's server announce an update
	// of WatchedURI.
	NotifyResourcePath = "/control/resource"
	// MemPath: GET answers the child's live heap, stack and goroutines,
	// after letting goroutines settle and collecting garbage, as JSON.
	MemPath = "/control/mem"
)

// ChildMem is what a child server answers on MemPath.
type ChildMem struct {
	// TotalAlloc is the bytes the child has allocated since it started.
	TotalAlloc uint64 `json:"totalAlloc"`
	Heap       uint64 `json:"heap"`
	Stack      uint64 `json:"stack"`
	Goroutines int    `json:"goroutines"`
}

// withControl serves the control paths for srv and passes every other
// request to h.
func withControl(h http.Handler, srv Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var err error
		switch r.URL.Path {
		case MemPath:
			serveMem(w)
			return
		case NotifyToolsPath, NotifyResourcePath:
			n, ok := srv.(Notifier)
			if !ok {
				http.Error(w, "server cannot notify", http.StatusNotImplemented)
				return
			}
			if r.URL.Path == NotifyToolsPath {
				err = n.ChangeTools(r.Context())
			} else {
				err = n.UpdateResource(r.Context())
			}
		default:
			h.ServeHTTP(w, r)
			return
		}
		switch {
		case errors.Is(err, ErrPending):
			http.Error(w, err.Error(), http.StatusNotImplemented)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
}

// Control POSTs to a child's control path and returns an error wrapping
// ErrPending if the child's server cannot do it.
func (c *Child) Control(ctx context.Context, hc *http.Client, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer drain(resp)
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch resp.StatusCode {
	case http.StatusNoContent:
		return nil
	case http.StatusNotImplemented:
		return fmt.Errorf("%w: %s", ErrPending, bytes.TrimSpace(body))
	default:
		return fmt.Errorf("bench child %s %s: status %s: %s", c.name, path, resp.Status, bytes.TrimSpace(body))
	}
}

// Mem asks the child for its live heap, stacks and goroutines.
func (c *Child) Mem(ctx context.Context, hc *http.Client) (ChildMem, error) {
	var m ChildMem
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+MemPath, nil)
	if err != nil {
		return m, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return m, err
	}
	defer drain(resp)
	if resp.StatusCode != http.StatusOK {
		return m, fmt.Errorf("bench child %s: mem: status %s", c.name, resp.Status)
	}
	return m, json.NewDecoder(resp.Body).Decode(&m)
}
