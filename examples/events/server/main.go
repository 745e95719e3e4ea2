// Command server is an MCP server that offers one event type (the
// "io.modelcontextprotocol/events" extension): inbox.message, an email
// that arrived, which clients receive by polling (events/poll) or on a
// push stream (events/stream), filtered by sender if they ask. Its tool
// send_message delivers a message to the inbox, so that there is
// something to receive. It serves MCP over stdin and stdout, and exits 0
// when its input closes; with -http it serves streamable HTTP at /mcp
// instead, until interrupted.
//
//	go run ./examples/events/server
//	go run ./examples/events/server -http localhost:8080
package main

import (
	"context"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// docs:region types
// Filter is what a subscription to inbox.message may ask: only the
// messages of one sender. Its schema is the type's input schema.
type Filter struct {
	From string `json:"from,omitempty" jsonschema:"only messages from this sender"`
}

// Message is the payload of inbox.message. Its schema is the type's
// payload schema.
type Message struct {
	From    string `json:"from"`
	Subject string `json:"subject"`
}

// docs:endregion

// newServer returns the server: the Events extension turned on, the
// event type, and the tool that emits it.
func newServer() *mcp.Server {
	// docs:region server
	s := mcp.NewServer("inbox", "v1.0.0", nil)
	es := events.NewServer(s, nil)
	es.AddTypes(events.NewType("inbox.message", "A message arrived in the inbox", &events.TypeOptions[Filter, Message]{
		Match: func(f Filter, m Message) bool { return f.From == "" || f.From == m.From },
	}))
	s.AddTools(mcp.NewTool("send_message", "Deliver a message to the inbox",
		func(ctx context.Context, _ *mcp.ServerSession, m Message) ([]*mcp.Content, error) {
			o, err := es.Emit(ctx, "inbox.message", m, nil)
			if err != nil {
				return nil, err
			}
			return []*mcp.Content{mcp.NewTextContent("delivered as " + o.EventID)}, nil
		}))
	// docs:endregion
	return s
}

func main() {
	serve.Main(newServer)
}
