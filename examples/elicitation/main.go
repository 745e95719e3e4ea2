// Command elicitation shows tools that ask the user for input through the
// client: one with a form (form mode), one by sending the user to a URL
// (URL mode), for what must not pass through the client, such as
// credentials. It runs a server and a client in one process; the client's
// "user" answers from code.
//
//	go run ./examples/elicitation [-protocol 2025-11-25]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "protocol version the client pins (default: the newest both sides speak)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *protocol); err != nil {
		log.Fatal(err)
	}
}

// docs:region form
func bookTable(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: "How many people, and when?",
		RequestedSchema: &mcp.ElicitationSchema{
			Type: "object",
			Properties: map[string]*mcp.PrimitiveSchema{
				"people": {Type: "integer", Title: "Party size"},
				"date":   {Type: "string", Format: "date", Title: "Date"},
			},
			Required: []string{"people", "date"},
		},
	})
	if err != nil {
		return nil, err
	}
	if res.Action != mcp.ElicitActionAccept {
		return []*mcp.Content{mcp.NewTextContent("booking " + res.Action)}, nil
	}
	// Accepted content has been validated against the requested schema.
	text := fmt.Sprintf("booked a table for %v on %v", res.Content["people"], res.Content["date"])
	return []*mcp.Content{mcp.NewTextContent(text)}, nil
}

// docs:endregion

// docs:region url
func connectAccount(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Mode:    mcp.ElicitationModeURL,
		Message: "Sign in to your calendar to let me book for you.",
		URL:     "https://calendar.example.com/connect?session=abc123",
	})
	if err != nil {
		return nil, err
	}
	// Accept means the user agreed to open the URL, not that they finished
	// there: the server learns that from its own web flow.
	return []*mcp.Content{mcp.NewTextContent("sign-in " + res.Action)}, nil
}

// docs:endregion

// docs:region client
// answer is the client's elicitation handler. A real client shows the form
// or, in URL mode, asks the user's consent and opens the URL in a browser.
func answer(ctx context.Context, cs *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if p.Mode == mcp.ElicitationModeURL {
		return &mcp.ElicitResult{Action: mcp.ElicitActionAccept}, nil
	}
	return &mcp.ElicitResult{
		Action:  mcp.ElicitActionAccept,
		Content: map[string]any{"people": 4, "date": "2026-12-24"},
	}, nil
}

// docs:endregion

// run connects a client that can elicit to the server, calls both tools
// and prints their results to w.
func run(ctx context.Context, w io.Writer, protocol string) error {
	server := mcp.NewServer("bookings", "v1.0.0", nil)
	server.AddTools(
		mcp.NewTool("book_table", "Books a table, asking the user for the details", bookTable),
		mcp.NewTool("connect_account", "Connects the user's calendar", connectAccount))
	client := mcp.NewClient("elicitation-client", "v1.0.0", &mcp.ClientOptions{
		ProtocolVersion:    protocol,
		ElicitationHandler: answer, // declares elicitation in form and URL mode
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st); err != nil {
		return err
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		return err
	}
	defer cs.Close()
	for _, tool := range []string{"book_table", "connect_account"} {
		res, err := cs.CallTool(ctx, tool, nil, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s %s: %s\n", cs.ProtocolVersion(), tool, res.Content[0].Text)
	}
	return nil
}
