// Command sampling shows a tool that asks the client's model for a
// completion (sampling/createMessage). It runs a server and a client in one
// process; the client's "model" is a stand-in that a real client would
// replace with a call to an LLM.
//
// The same handler code works in both protocol eras: before 2026-07-28 the
// server sends the client a request; in 2026-07-28 the tool call returns an
// input-required result that the client fulfils and retries, without the
// handler or the caller doing anything.
//
//	go run ./examples/sampling [-protocol 2025-11-25]
package main

//lint:file-ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it: this example is about it

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol version the client pins (default: the newest both sides speak)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *protocol); err != nil {
		log.Fatal(err)
	}
}

type summarizeArgs struct {
	Text string `json:"text"`
}

// docs:region server
func summarize(ctx context.Context, ss *mcp.ServerSession, in summarizeArgs) ([]*mcp.Content, error) {
	res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
		SystemPrompt: "You write one-line summaries.",
		Messages: []*mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent("Summarize: " + in.Text)}},
		},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, err
	}
	return []*mcp.Content{mcp.NewTextContent(fmt.Sprintf("%s (by %s)", res.Content[0].Text, res.Model))}, nil
}

// docs:endregion

// docs:region client
// sample is the client's sampling handler. A real client asks the user to
// approve the request and calls its model.
func sample(ctx context.Context, cs *mcp.ClientSession, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	prompt := p.Messages[len(p.Messages)-1].Content[0].Text
	words := strings.Fields(strings.TrimPrefix(prompt, "Summarize: "))
	if len(words) > 4 {
		words = append(words[:4], "...")
	}
	return &mcp.CreateMessageResult{
		Role:       mcp.RoleAssistant,
		Content:    []*mcp.Content{mcp.NewTextContent(strings.Join(words, " "))},
		Model:      "stand-in-model",
		StopReason: mcp.StopReasonEndTurn,
	}, nil
}

// docs:endregion

// run connects a client that can sample to the server, calls the tool and
// prints its result to w.
func run(ctx context.Context, w io.Writer, protocol string) error {
	server := mcp.NewServer("summarizer", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("summarize", "Summarizes a text with the client's model", summarize))
	// docs:region connect
	client := mcp.NewClient("sampling-client", "v1.0.0", &mcp.ClientOptions{
		ProtocolVersion:      protocol,
		CreateMessageHandler: sample, // declares the sampling capability
	})
	// docs:endregion
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		return err
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		return err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, "summarize", map[string]any{"text": "The quick brown fox jumps over the lazy dog"}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s\n", cs.ProtocolVersion(), res.Content[0].Text)
	return nil
}
