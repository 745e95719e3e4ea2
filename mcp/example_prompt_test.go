package mcp_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// connectInMemory connects a client to server in the same process.
func connectInMemory(server *mcp.Server, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(context.Background(), st); err != nil {
		return nil, err
	}
	return mcp.NewClient("example-client", "v1.0.0", opts).Connect(context.Background(), ct)
}

func ExampleNewPrompt() {
	type reviewArgs struct {
		Code     string `json:"code"`               // required
		Language string `json:"language,omitempty"` // optional
	}
	review := mcp.NewPrompt("code_review", "Asks the LLM to review code",
		func(ctx context.Context, ss *mcp.ServerSession, in reviewArgs) (*mcp.GetPromptResult, error) {
			text := fmt.Sprintf("Please review this %s code:\n%s", in.Language, in.Code)
			return &mcp.GetPromptResult{
				Messages: []*mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}},
			}, nil
		},
		mcp.PromptTitle("Request Code Review"),
		mcp.Argument("code", mcp.ArgumentTitle("Code")))

	server := mcp.NewServer("example", "v1.0.0", nil)
	server.AddPrompts(review)
	cs, err := connectInMemory(server, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	ctx := context.Background()
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		for _, a := range p.Arguments {
			fmt.Printf("%s: argument %s (required: %t)\n", p.Name, a.Name, a.Required)
		}
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{
		Name:      "code_review",
		Arguments: map[string]string{"code": "fmt.Println(1)", "language": "Go"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Messages[0].Content.Text)

	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review"})
	fmt.Println(err)
	// Output:
	// code_review: argument code (required: true)
	// code_review: argument language (required: false)
	// Please review this Go code:
	// fmt.Println(1)
	// prompts/get: Invalid arguments for prompt code_review: missing required argument "code" (code -32602)
}

func ExampleCompleteWith() {
	languages := []string{"go", "haskell", "python", "pytorch", "rust"}
	complete := func(ctx context.Context, value string, resolved map[string]string) ([]string, error) {
		var out []string
		for _, l := range languages {
			if strings.HasPrefix(l, value) {
				out = append(out, l)
			}
		}
		return out, nil
	}
	server := mcp.NewServer("example", "v1.0.0", nil)
	server.AddPrompts(mcp.NewPrompt("hello", "Says hello in a language",
		func(ctx context.Context, ss *mcp.ServerSession, in map[string]string) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		},
		mcp.Argument("language", mcp.ArgumentRequired(true), mcp.CompleteWith(complete))))
	cs, err := connectInMemory(server, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: "hello"},
		Argument: mcp.CompleteArgument{Name: "language", Value: "py"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Completion.Values, res.Completion.Total, res.Completion.HasMore)
	// Output:
	// [python pytorch] 2 false
}

func ExampleNewLoggingHandler() {
	server := mcp.NewServer("example", "v1.0.0", &mcp.ServerOptions{LoggerName: "example"})
	server.AddPrompts(mcp.NewPrompt("busy", "Logs while it works",
		func(ctx context.Context, ss *mcp.ServerSession, _ map[string]string) (*mcp.GetPromptResult, error) {
			logger := slog.New(mcp.NewLoggingHandler(ss, nil))
			logger.Debug("details nobody asked for")
			logger.Info("fetching", "url", "https://example.com")
			logger.Log(ctx, mcp.LevelNotice, "cache refreshed")
			return &mcp.GetPromptResult{}, nil
		}))
	cs, err := connectInMemory(server, &mcp.ClientOptions{
		LoggingMessageHandler: func(ctx context.Context, cs *mcp.ClientSession, p *mcp.LoggingMessageParams) {
			fmt.Printf("%s %s: %s\n", p.Level, p.Logger, p.Data.(map[string]any)["msg"])
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	ctx := context.Background()
	// Ask for info and above: with 2026-07-28 the level travels in every
	// request's _meta; with earlier versions it is sent by logging/setLevel.
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevelInfo}); err != nil {
		log.Fatal(err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "busy"}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// info example: fetching
	// notice example: cache refreshed
}
