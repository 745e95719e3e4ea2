package gosrc

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
)

// membersSrc has the shapes item 15 of issue 29 names: an interface (and
// interfaces embedding others of the package, exported or not), a client
// whose commands come from an embedded unexported command set, and a
// struct embedding exported types (bufio.ReadWriter).
const membersSrc = `// Package m has members.
package m

import "context"

// Span is one operation.
type Span interface {
	// End completes the Span.
	End(options ...string)
	Named
	stateful
	hidden()
}

// Named has a name.
type Named interface {
	// SetName sets the name.
	SetName(name string)
}

type stateful interface {
	// State reports the state.
	State() int
}

type cmdable func(ctx context.Context, cmd string) error

// Get runs GET key.
func (c cmdable) Get(ctx context.Context, key string) string { return "" }

type baseClient struct{}

// Close closes the client.
func (c *baseClient) Close() error { return nil }

// Client is a client.
type Client struct {
	// opts holds the options; never printed.
	opts int
	*baseClient
	cmdable
}

// Options returns the options.
func (c *Client) Options() int { return c.opts }

// Reader reads.
type Reader struct{}

// Read reads.
func (r *Reader) Read(p []byte) (int, error) { return 0, nil }

// Size is ambiguous in ReadWriter.
func (r *Reader) Size() int { return 0 }

// Writer writes.
type Writer struct{}

// Write writes.
func (w *Writer) Write(p []byte) (int, error) { return 0, nil }

// Size is ambiguous in ReadWriter.
func (w *Writer) Size() int { return 0 }

// ReadWriter reads and writes.
type ReadWriter struct {
	*Reader
	*Writer
}
`

// TestTypeMembers: interface methods and promoted methods are found as
// Type.Method, listed with their type and not in the package's index.
func TestTypeMembers(t *testing.T) {
	pkg, err := Extract(archive.FromFiles(map[string][]byte{"m.go": []byte(membersSrc)}), "", "example.com/m", Target{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, signature, doc string
		hidden               bool // listed with the type, not in the index
	}{
		{"Span.End", "func (Span) End(options ...string)", "End completes the Span.", true},
		{"Span.SetName", "func (Span) SetName(name string)", "From the embedded interface Named.", true},
		{"Span.State", "func (Span) State() int", "From the embedded interface stateful.", true},
		{"Named.SetName", "func (Named) SetName(name string)", "SetName sets the name.", true},
		{"Client.Options", "func (c *Client) Options() int", "Options returns the options.", false},
		{"Client.Get", "func (c Client) Get(ctx context.Context, key string) string", "Promoted from the embedded cmdable.", true},
		{"Client.Close", "func (c Client) Close() error", "Promoted from the embedded baseClient.", true},
		{"ReadWriter.Read", "func (r ReadWriter) Read(p []byte) (int, error)", "Promoted from the embedded Reader.", true},
		{"ReadWriter.Write", "func (w ReadWriter) Write(p []byte) (int, error)", "Promoted from the embedded Writer.", true},
	} {
		s := findSym(pkg.Symbols, tc.name)
		if s == nil {
			t.Errorf("%s: not found", tc.name)
			continue
		}
		if s.Kind != "method" || s.Signature != tc.signature || !strings.Contains(s.Doc, tc.doc) || s.Hidden != tc.hidden {
			t.Errorf("%s: kind %q, signature %q, doc %q, hidden %v; want a method %q, doc with %q, hidden %v", tc.name, s.Kind, s.Signature, s.Doc, s.Hidden, tc.signature, tc.doc, tc.hidden)
		}
	}
	for _, absent := range []string{"Span.hidden", "ReadWriter.Size", "Client.opts"} {
		if findSym(pkg.Symbols, absent) != nil {
			t.Errorf("%s: found; an unexported or ambiguous member must not be", absent)
		}
	}
	if c := findSym(pkg.Symbols, "Client"); c == nil || strings.Contains(c.Signature, "never printed") || !strings.Contains(c.Signature, "contains filtered or unexported fields") {
		t.Errorf("Client's declaration prints the comment of a filtered field:\n%v", c)
	}
}
