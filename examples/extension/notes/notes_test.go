package notes_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gomcp/sdk/examples/extension/notes"
	"github.com/gomcp/sdk/mcp"
)

// pair connects client to server over in-memory transports.
func pair(t *testing.T, server *mcp.Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func newServer() *mcp.Server {
	return notes.EnableServer(mcp.NewServer("notes", "v1", nil), notes.Settings{MaxNotes: 3})
}

// newClient returns a client that speaks version ("" for the newest).
func newClient(version string) *mcp.Client {
	return mcp.NewClient("test", "v1", &mcp.ClientOptions{ProtocolVersion: version})
}

var versions = []string{mcp.Version20251125, mcp.Version20260728}

func TestExtension(t *testing.T) {
	ctx := context.Background()
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			var added []notes.AddedParams // the handler runs before Add returns
			cs := pair(t, newServer(), notes.EnableClient(newClient(v), func(_ context.Context, p *notes.AddedParams) {
				added = append(added, *p)
			}))
			settings, err := notes.ServerSettings(cs)
			if err != nil || settings.MaxNotes != 3 {
				t.Fatalf("ServerSettings = %+v, %v; want MaxNotes 3", settings, err)
			}
			for i, text := range []string{"a", "b", "c", "d"} {
				n, err := notes.Add(ctx, cs, text)
				if err != nil {
					t.Fatalf("Add(%q): %v", text, err)
				}
				if want := min(i+1, 3); n != want {
					t.Errorf("Add(%q) = %d notes, want %d", text, n, want)
				}
			}
			got, err := notes.List(ctx, cs)
			if err != nil || !slices.Equal(got, []string{"b", "c", "d"}) {
				t.Errorf("List = %q, %v; want the last three", got, err)
			}
			want := []notes.AddedParams{{Text: "a", Count: 1}, {Text: "b", Count: 2}, {Text: "c", Count: 3}, {Text: "d", Count: 3}}
			if len(added) != len(want) {
				t.Fatalf("client got %d added notifications, want %d", len(added), len(want))
			}
			for i := range want {
				if added[i].Text != want[i].Text || added[i].Count != want[i].Count {
					t.Errorf("notification %d = %+v, want %+v", i, added[i], want[i])
				}
			}
		})
	}
}

// Errors a client sees, with the code the spec gives each.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	plain := mcp.NewServer("plain", "v1", nil) // no extension
	tests := []struct {
		name   string
		server *mcp.Server
		client bool // declares the extension
		call   func(cs *mcp.ClientSession) error
		code   mcp.ErrorCode
	}{
		{"add without declaring the extension", newServer(), false,
			func(cs *mcp.ClientSession) error { _, err := notes.Add(ctx, cs, "x"); return err },
			mcp.CodeMissingRequiredClientCapability},
		{"empty text is invalid params", newServer(), true,
			func(cs *mcp.ClientSession) error { _, err := notes.Add(ctx, cs, ""); return err },
			mcp.CodeInvalidParams},
		{"server without the extension", plain, true,
			func(cs *mcp.ClientSession) error { _, err := notes.List(ctx, cs); return err },
			mcp.CodeMethodNotFound},
	}
	for _, tt := range tests {
		for _, v := range versions {
			t.Run(tt.name+"/"+v, func(t *testing.T) {
				c := newClient(v)
				if tt.client {
					notes.EnableClient(c, nil)
				}
				err := tt.call(pair(t, tt.server, c))
				if got := mcp.CodeOf(err); got != tt.code {
					t.Errorf("error %v has code %v, want %v", err, got, tt.code)
				}
			})
		}
	}
}

func TestListWithoutDeclaring(t *testing.T) {
	cs := pair(t, newServer(), newClient(""))
	if got, err := notes.List(context.Background(), cs); err != nil || len(got) != 0 {
		t.Errorf("List = %q, %v; want no notes, no error", got, err)
	}
}

func TestServerSettingsNotSupported(t *testing.T) {
	cs := pair(t, mcp.NewServer("plain", "v1", nil), newClient(""))
	if _, err := notes.ServerSettings(cs); !errors.Is(err, notes.ErrNotSupported) {
		t.Errorf("err = %v, want ErrNotSupported", err)
	}
}

// Settings are decoded case-sensitively: a member named in another case is
// not the setting.
func TestServerSettingsStrict(t *testing.T) {
	opts := &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{
		Extensions: map[string]any{notes.ExtensionID: map[string]any{"MAXNOTES": 5}},
	}}
	cs := pair(t, mcp.NewServer("odd", "v1", opts), newClient(""))
	s, err := notes.ServerSettings(cs)
	if err != nil || s.MaxNotes != 0 {
		t.Errorf("ServerSettings = %+v, %v; want MaxNotes 0 (MAXNOTES is not maxNotes)", s, err)
	}
}
