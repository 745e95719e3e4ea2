package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func (s *session) checkPromptsList(ctx context.Context) error {
	for p, err := range s.cs.Prompts(ctx, nil) {
		if err != nil {
			return err
		}
		if p.Name != promptName {
			continue
		}
		if len(p.Arguments) != 1 || p.Arguments[0].Name != "name" || !p.Arguments[0].Required {
			return fmt.Errorf("greet arguments %+v, want one required \"name\"", p.Arguments)
		}
		return nil
	}
	return fmt.Errorf("no prompt %q", promptName)
}

func (s *session) checkPromptsGet(ctx context.Context) error {
	res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: promptName, Arguments: map[string]string{"name": elicitName}})
	if err != nil {
		return err
	}
	want := "Hello, " + elicitName + "!"
	if len(res.Messages) != 1 || res.Messages[0].Role != mcp.RoleUser || res.Messages[0].Content == nil || res.Messages[0].Content.Text != want {
		return fmt.Errorf("messages %+v, want one user message %q", res.Messages, want)
	}
	return nil
}

func (s *session) checkResourcesList(ctx context.Context) error {
	found := map[string]string{}
	for r, err := range s.cs.Resources(ctx, nil) {
		if err != nil {
			return err
		}
		found[r.URI] = r.Name + " " + r.MIMEType
	}
	if found[staticURI] != "static text/plain" || found[blobURI] != "blob application/octet-stream" {
		return fmt.Errorf("resources %v lack static (text/plain) or blob (application/octet-stream)", found)
	}
	return nil
}

func (s *session) checkResourcesRead(ctx context.Context) error {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: staticURI})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 || res.Contents[0].Blob != nil || res.Contents[0].Text != staticText || res.Contents[0].MIMEType != "text/plain" {
		return fmt.Errorf("read %s: %+v", staticURI, res.Contents)
	}
	res, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: blobURI})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 || !slices.Equal(res.Contents[0].Blob, blob) || res.Contents[0].MIMEType != "application/octet-stream" {
		return fmt.Errorf("read %s: %+v, want blob %v", blobURI, res.Contents, blob)
	}
	return nil
}

// checkResourceMissing: an unknown resource is a JSON-RPC error, -32002
// before 2026-07-28 and -32602 from then on.
func (s *session) checkResourceMissing(ctx context.Context) error {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://missing"})
	if err == nil {
		return fmt.Errorf("read test://missing succeeded: %+v", res.Contents)
	}
	want := int64(-32002)
	if s.cs.ProtocolVersion() >= "2026-07-28" {
		want = -32602
	}
	var werr *mcp.JSONRPCError
	if !errors.As(err, &werr) || int64(werr.Code) != want {
		return fmt.Errorf("read test://missing: %v, want error code %d", err, want)
	}
	return nil
}

func (s *session) checkTemplatesList(ctx context.Context) error {
	for rt, err := range s.cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			return err
		}
		if rt.URITemplate == template {
			return nil
		}
	}
	return fmt.Errorf("no template %q", template)
}

func (s *session) checkTemplateRead(ctx context.Context) error {
	const uri = "test://items/42"
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 || res.Contents[0].Text != "item 42" || res.Contents[0].URI != uri {
		return fmt.Errorf("read %s: %+v, want text \"item 42\"", uri, res.Contents)
	}
	return nil
}

func (s *session) checkComplete(ctx context.Context, ref *mcp.CompleteReference, arg, value string, want ...string) error {
	res, err := s.cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteArgument{Name: arg, Value: value}})
	if err != nil {
		return err
	}
	got := slices.Sorted(slices.Values(res.Completion.Values))
	if !slices.Equal(got, want) {
		return fmt.Errorf("completions %q, want %q", got, want)
	}
	return nil
}

// checkToolsListChanged calls change, which adds the tool "added", and
// expects notifications/tools/list_changed and the new tool in the list.
func (s *session) checkToolsListChanged(ctx context.Context) error {
	_, _, before := s.ev.snapshot("")
	res, err := s.call(ctx, "change", map[string]any{}, "")
	if err := wantText(res, err, changedText); err != nil {
		return err
	}
	if !waitFor(3*time.Second, func() bool { _, _, n := s.ev.snapshot(""); return n > before }) {
		return errors.New("no notifications/tools/list_changed within 3s")
	}
	for tl, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if tl.Name == addedTool {
			return nil
		}
	}
	return fmt.Errorf("tool %q not listed after change", addedTool)
}
