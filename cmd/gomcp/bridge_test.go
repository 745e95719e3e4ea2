package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// TestBridgeLegacyStream subscribes to a resource through the bridge in
// the handshake era: the updates come on the server's GET stream, which
// the bridge opens and forwards.
func TestBridgeLegacyStream(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's periodic update")
	}
	uri, stderr := updateThroughBridge(t, everythingURL)
	switch {
	case uri == "":
		t.Fatalf("no resource update came through the bridge; stderr %s", stderr)
	case uri != "test://watched-resource":
		t.Fatalf("update of %q", uri)
	}
}

// TestBridgeReopensLegacyStream: a GET stream that ends is opened again,
// so the updates after it still come through. The proxy in front of the
// server ends the first GET at once.
func TestBridgeReopensLegacyStream(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's periodic update")
	}
	target, err := url.Parse(everythingURL)
	if err != nil {
		t.Fatal(err)
	}
	var gets atomic.Int64
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target); r.Out.URL.Path = target.Path }, FlushInterval: -1}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && gets.Add(1) == 1 {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK) // and the stream ends
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer ts.Close()
	if uri, stderr := updateThroughBridge(t, ts.URL+"/mcp"); uri == "" {
		t.Fatalf("no resource update after the GET stream ended (%d GETs); stderr %s", gets.Load(), stderr)
	}
	if n := gets.Load(); n < 2 {
		t.Errorf("%d GETs: the stream was not opened again", n)
	}
}

// updateThroughBridge runs the bridge to the server at serverURL, connects
// a handshake-era client to it, subscribes to test://watched-resource and
// returns the URI of the first resource update the client gets within 20
// seconds ("" if none), with the bridge's stderr. The bridge must exit 0
// once its input closes.
func updateThroughBridge(t *testing.T, serverURL string) (uri, stderr string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	env, _, errw := testEnv(t, "", nil)
	env.stdin, env.stdout = inR, outW
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, []string{"bridge", serverURL}) }()
	updated := make(chan string, 1)
	cs, err := mcp.NewClient("test", "1", &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20251125,
		ResourceUpdatedHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ResourceUpdatedParams) {
			select {
			case updated <- p.URI:
			default:
			}
		},
	}).Connect(ctx, mcp.NewIOTransport(struct {
		io.Reader
		io.Writer
		io.Closer
	}{outR, inW, inW}))
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, errw.String())
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri = <-updated:
	case <-ctx.Done():
		return "", errw.String()
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("bridge exited %d: %s", code, errw.String())
	}
	outW.Close()
	cs.Close()
	return uri, errw.String()
}

// TestReadSSEEventIDs: the reader passes each event the last id seen.
func TestReadSSEEventIDs(t *testing.T) {
	var got []string
	in := "id: 1\ndata: a\n\ndata: b\n\nid: 7\ndata: c\n\nid: x\x00y\ndata: d\n\n"
	if err := readSSEEvents(strings.NewReader(in), func(id string, d []byte) error {
		got = append(got, id+"="+string(d))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"1=a", "1=b", "7=c", "7=d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReadSSE is the SSE framing table of the bridge's GET stream reader.
func TestReadSSE(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"data: a\n\n", []string{"a"}},
		{"data:a\ndata: b\n\n", []string{"a\nb"}},
		{": comment\nevent: message\nid: 1\ndata: x\n\ndata: y\n\n", []string{"x", "y"}},
		{"retry: 10\n\n\n", nil},
		{"data: unterminated", nil},
	}
	for _, tt := range tests {
		var got []string
		if err := readSSE(strings.NewReader(tt.in), func(d []byte) error { got = append(got, string(d)); return nil }); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("readSSE(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	stop := errors.New("stop")
	if err := readSSE(strings.NewReader("data: a\n\ndata: b\n\n"), func([]byte) error { return stop }); err != stop {
		t.Fatalf("a failing dispatch: %v", err)
	}
}

func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n: c\ndata:\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = readSSE(strings.NewReader(string(data)), func(d []byte) error {
			_, _ = mcp.DecodeMessage(d)
			return nil
		})
	})
}

// TestBridgeOAuth bridges to a protected server with client credentials.
func TestBridgeOAuth(t *testing.T) {
	f := newFakeOAuth(t)
	line := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	env, out, errw := testEnv(t, line, map[string]string{"GOMCP_CLIENT_SECRET": "s3cret"})
	r := runIn(t, env, out, errw, "bridge", "--client-credentials", "--client-id", "svc", "--token-store", filepath.Join(t.TempDir(), "t.json"), f.srv.URL+"/mcp")
	if r.code != 0 || !strings.Contains(r.stdout, `"serverInfo":{"name":"protected"`) {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestBridge runs gomcp bridge in-process between an SDK client on its
// stdio and the everything-server over HTTP, in both eras.
func TestBridge(t *testing.T) {
	for _, version := range []string{"", mcp.Version20251125} {
		t.Run("version="+version, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			env, _, errw := testEnv(t, "", nil)
			env.stdin, env.stdout = inR, outW
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int, 1)
			go func() { done <- run(ctx, env, []string{"bridge", everythingURL}) }()
			cs, err := mcp.NewClient("test", "1", &mcp.ClientOptions{ProtocolVersion: version}).Connect(ctx, mcp.NewIOTransport(struct {
				io.Reader
				io.Writer
				io.Closer
			}{outR, inW, inW}))
			if err != nil {
				t.Fatalf("connect through the bridge: %v; stderr %s", err, errw.String())
			}
			res, err := cs.CallTool(ctx, "greet", map[string]any{"name": "Bridge"}, nil)
			if err != nil || res.Content[0].Text != "Hello, Bridge!" {
				t.Fatalf("call = %+v, %v", res, err)
			}
			if want := version; want != "" && cs.ProtocolVersion() != want {
				t.Fatalf("protocol %s, want %s", cs.ProtocolVersion(), want)
			}
			// The client closing its side ends the bridge, whose exit
			// closes its stdout.
			inW.Close()
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("bridge exited %d: %s", code, errw.String())
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the bridge did not end when its input closed")
			}
			outW.Close()
			cs.Close()
			cancel()
		})
	}
}

// The bridge opens the GET stream once it has both the initialize result
// and the client's notifications/initialized, in either order: under load
// the client's notification can pass the bridge before it has noted the
// result it forwarded.
func TestLegacyStreamStartsInEitherOrder(t *testing.T) {
	initResult, err := mcp.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	initialized, err := mcp.DecodeMessage([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, clientFirst := range []bool{true, false} {
		gets := make(chan string, 4)
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gets <- r.Header.Get("MCP-Protocol-Version")
			w.WriteHeader(http.StatusMethodNotAllowed) // no stream: run ends
		}))
		obs := newObserver()
		obs.session = "S1"
		l := &legacyStream{hc: ts.Client(), url: ts.URL, obs: obs}
		ctx, cancel := context.WithCancel(context.Background())
		if clientFirst {
			l.fromClient(ctx, initialized)
			l.fromServer(initResult)
		} else {
			l.fromServer(initResult)
			l.fromClient(ctx, initialized)
		}
		select {
		case v := <-gets:
			if v != "2025-11-25" {
				t.Errorf("client first %v: GET with version %q", clientFirst, v)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("client first %v: the GET stream was never opened", clientFirst)
		}
		l.fromClient(ctx, initialized) // again: nothing more
		l.wg.Wait()
		cancel()
		ts.Close()
		if n := len(gets); n != 0 {
			t.Errorf("client first %v: %d more GETs", clientFirst, n)
		}
	}
}
