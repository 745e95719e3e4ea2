package otel

import (
	"context"
	"io"
	"testing"

	"github.com/gomcp/sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// pipeEnd is one end of a pair of OS pipes, as a stdio connection is.
type pipeEnd struct {
	io.Reader
	io.WriteCloser
	r io.Closer
}

func (p pipeEnd) Close() error {
	err := p.WriteCloser.Close()
	if cerr := p.r.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestPipeTrace checks a tool call over byte pipes, like stdio, in both
// eras: the server span is the client span's child, and both say
// network.transport=pipe.
func TestPipeTrace(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tm := newTelemetry(t)
			server, client := pair(tm, era.request)
			cr, sw := io.Pipe()
			sr, cw := io.Pipe()
			ss, err := server.Connect(context.Background(), mcp.NewIOTransport(pipeEnd{sr, sw, sr}))
			if err != nil {
				t.Fatal(err)
			}
			cs, err := client.Connect(context.Background(), mcp.NewIOTransport(pipeEnd{cr, cw, cr}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(context.Background(), "greet", map[string]any{"name": "Ada"}, nil); err != nil {
				t.Fatal(err)
			}
			_ = cs.Close()
			_ = ss.Wait()
			c := spanOf(t, tm, "tools/call greet", trace.SpanKindClient)
			s := spanOf(t, tm, "tools/call greet", trace.SpanKindServer)
			checkChild(t, c, s)
			for _, sp := range []map[string]string{attrs(c.Attributes()), attrs(s.Attributes())} {
				if sp["network.transport"] != "pipe" || sp["mcp.protocol.version"] != era.want {
					t.Errorf("network.transport %q, mcp.protocol.version %q", sp["network.transport"], sp["mcp.protocol.version"])
				}
			}
		})
	}
}
