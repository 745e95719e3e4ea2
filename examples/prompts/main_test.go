package main

import (
	"context"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestPrompts(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var names []string
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
	}
	if len(names) != 2 {
		t.Errorf("prompts = %v", names)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "translate", Arguments: map[string]string{"text": "hola", "to": "English"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Messages[0].Content.Text; got != "Translate into English:\n\nhola" {
		t.Errorf("translate = %q", got)
	}
	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review", Arguments: map[string]string{"code": "x := 1", "language": "Go"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Messages[0].Content.Text; got != "Review this Go code for bugs:\n\nx := 1" {
		t.Errorf("code_review = %q", got)
	}
	// A missing required argument is refused before the handler runs.
	// docs:region rpcerror
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review"})
	// CodeOf reads the code of the *JSONRPCError the error wraps.
	if code := mcp.CodeOf(err); code != mcp.CodeInvalidParams {
		t.Errorf("missing argument: err = %v, code %v", err, code)
	}
	// docs:endregion
}
