package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

const testExt = "com.example/probe"

type probeParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
}

type probeResult struct {
	// ClientDeclared says whether the request's client declared testExt.
	ClientDeclared bool `json:"clientDeclared"`
}

// probeMethod reports whether the calling client declared testExt.
var probeMethod = mcp.NewServerMethod(testExt+"/probe", func(ctx context.Context, ss *mcp.ServerSession, p *probeParams) (*probeResult, error) {
	_, ok := ss.ClientExtension(testExt)
	return &probeResult{ClientDeclared: ok}, nil
}, nil)

var eras = []string{mcp.Version20251125, mcp.Version20260728}

// pair connects client to server in memory.
func pair(t *testing.T, server *mcp.Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func probe(t *testing.T, cs *mcp.ClientSession) (bool, error) {
	t.Helper()
	var res probeResult
	err := cs.Call(context.Background(), testExt+"/probe", &probeParams{}, &res)
	return res.ClientDeclared, err
}

// AddExtension declares the extension with its settings, which win over
// the options' entry, and serves its methods, in both eras.
func TestAddExtensionDeclares(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			server := mcp.NewServer("s", "v1", &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{
				Extensions: map[string]any{testExt: map[string]any{"from": "options"}, "com.example/other": map[string]any{}},
			}})
			server.AddExtension(testExt, map[string]any{"from": "AddExtension"}, probeMethod)
			client := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v})
			client.AddExtension(testExt, nil)
			cs := pair(t, server, client)
			settings, ok := cs.ServerExtension(testExt)
			if got := fmt.Sprint(settings); !ok || got != "map[from:AddExtension]" {
				t.Errorf("server settings = %s, %v; want those given to AddExtension", got, ok)
			}
			if _, ok := cs.ServerExtension("com.example/other"); !ok {
				t.Error("the options' other extension is gone")
			}
			if declared, err := probe(t, cs); err != nil || !declared {
				t.Errorf("probe = %v, %v; want the client's declaration seen", declared, err)
			}
			plain := pair(t, mcp.NewServer("plain", "v1", nil), mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v}))
			if _, ok := plain.ServerExtension(testExt); ok {
				t.Error("a server that did not turn the extension on declares it")
			}
			if _, err := probe(t, plain); mcp.CodeOf(err) != mcp.CodeMethodNotFound {
				t.Errorf("probe of a server without the extension: %v; want -32601", err)
			}
		})
	}
}

// After sessions exist: the methods are served at once; a session that
// completed initialize keeps the capabilities it was sent, a new session
// (or a 2026-07-28 client asking again) sees the declaration; a
// 2026-07-28 client declares its own new extension from its next request.
func TestAddExtensionAfterConnect(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			server := mcp.NewServer("s", "v1", nil)
			client := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v})
			cs := pair(t, server, client)
			server.AddExtension(testExt, nil, probeMethod)
			if _, ok := cs.ServerExtension(testExt); ok {
				t.Error("a connected session's server capabilities changed")
			}
			if declared, err := probe(t, cs); err != nil || declared {
				t.Errorf("probe before the client declares = %v, %v; want served, not declared", declared, err)
			}
			client.AddExtension(testExt, nil)
			declared, err := probe(t, cs)
			if want := v == mcp.Version20260728; err != nil || declared != want {
				t.Errorf("probe after Client.AddExtension = %v, %v; want %v (each 2026-07-28 request carries the capabilities)", declared, err, want)
			}
			fresh := pair(t, server, client)
			if _, ok := fresh.ServerExtension(testExt); !ok {
				t.Error("a new session does not see the extension")
			}
			if declared, err := probe(t, fresh); err != nil || !declared {
				t.Errorf("probe on a new session = %v, %v; want declared", declared, err)
			}
		})
	}
}

// Programming errors panic, as AddMethods and AddTools do.
func TestAddExtensionPanics(t *testing.T) {
	type listParams = mcp.ListToolsParams
	otherParams := mcp.NewServerMethod(mcp.MethodSetLoggingLevel, func(context.Context, *mcp.ServerSession, *probeParams) (*mcp.EmptyResult, error) {
		return &mcp.EmptyResult{}, nil
	}, &mcp.MethodOptions{Since: mcp.Version20260728})
	overlapping := mcp.NewServerMethod(mcp.MethodListTools, func(context.Context, *mcp.ServerSession, *listParams) (*mcp.ListToolsResult, error) {
		return &mcp.ListToolsResult{}, nil
	}, nil)
	tests := []struct {
		name     string
		id       string
		settings any
		method   *mcp.Method[mcp.ServerSession]
		err      error // the panic value wraps it, if set
	}{
		{"empty id", "", nil, nil, nil},
		{"no vendor prefix", "probe", nil, nil, nil},
		{"empty name", "com.example/", nil, nil, nil},
		{"empty prefix", "/probe", nil, nil, nil},
		{"settings not an object", testExt, 42, nil, nil},
		{"settings an array", testExt, []string{"a"}, nil, nil},
		{"a protocol method in its revisions", testExt, nil, overlapping, mcp.ErrMethodDefined},
		{"a protocol method's name with other params", testExt, nil, otherParams, mcp.ErrMethodDefined},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				v := recover()
				if v == nil {
					t.Fatal("no panic")
				}
				if err, _ := v.(error); tt.err != nil && !errors.Is(err, tt.err) {
					t.Errorf("panic %v; want %v", v, tt.err)
				}
			}()
			var methods []*mcp.Method[mcp.ServerSession]
			if tt.method != nil {
				methods = append(methods, tt.method)
			}
			mcp.NewServer("s", "v1", nil).AddExtension(tt.id, tt.settings, methods...)
		})
	}
}

// A method may take the name of a protocol method in revisions the
// protocol does not have it in, with the protocol's params type, as the
// tasks extension does with tasks/get: each revision is served by its own
// row, and the added row's 2026-07-28 results get their resultType as any
// added method's do.
func TestAddedMethodExtendsProtocolMethod(t *testing.T) {
	type levelResult struct {
		Level string `json:"level"`
	}
	server := mcp.NewServer("s", "v1", nil)
	server.AddExtension(testExt, nil, mcp.NewServerMethod(mcp.MethodSetLoggingLevel,
		func(ctx context.Context, ss *mcp.ServerSession, p *mcp.SetLoggingLevelParams) (*levelResult, error) {
			return &levelResult{Level: string(p.Level)}, nil
		}, &mcp.MethodOptions{Since: mcp.Version20260728}))
	want := map[string]string{
		mcp.Version20251125: "map[]", // the protocol's logging/setLevel
		mcp.Version20260728: "map[level:info resultType:complete]",
	}
	for _, v := range eras {
		cs := pair(t, server, mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v}))
		var res map[string]any
		err := cs.Call(context.Background(), mcp.MethodSetLoggingLevel, &mcp.SetLoggingLevelParams{Level: "info"}, &res)
		delete(res, "_meta") // the server's identity, in 2026-07-28
		if got := fmt.Sprint(res); err != nil || got != want[v] {
			t.Errorf("%s: result %s, %v; want %s", v, got, err, want[v])
		}
	}
}
