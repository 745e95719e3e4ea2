package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestClientExtensionSettings checks that a handler reads the settings a
// client declared for an extension, in both eras: from the request's _meta
// in 2026-07-28 and from initialize before.
func TestClientExtensionSettings(t *testing.T) {
	const ext = "example.com/limits"
	type limits struct {
		MaxItems int `json:"maxItems"`
	}
	s := NewServer("s", "v1", &ServerOptions{Capabilities: &ServerCapabilities{Extensions: map[string]any{ext: map[string]any{"version": "1"}}}})
	s.AddTools(&ServerTool{
		Tool: &Tool{Name: "limits", InputSchema: json.RawMessage(`{"type":"object"}`)},
		Handler: func(ctx context.Context, ss *ServerSession, _ *CallToolParams) (*CallToolResult, error) {
			settings, ok := ss.ClientExtension(ext)
			if !ok {
				return &CallToolResult{Content: []*Content{NewTextContent("not declared")}}, nil
			}
			var l limits
			if err := DecodeExtensionSettings(settings, &l); err != nil {
				return nil, err
			}
			return &CallToolResult{Content: []*Content{NewTextContent(fmt.Sprint("maxItems ", l.MaxItems))}}, nil
		},
	})
	for _, version := range []string{Version20260728, Version20251125} {
		for _, tt := range []struct {
			caps *ClientCapabilities
			want string
		}{
			{&ClientCapabilities{Extensions: map[string]any{ext: limits{MaxItems: 7}}}, "maxItems 7"},
			{&ClientCapabilities{Extensions: map[string]any{"other/ext": map[string]any{}}}, "not declared"},
			{nil, "not declared"},
		} {
			cs := connectTasks(t, s, &ClientOptions{ProtocolVersion: version, Capabilities: tt.caps})
			res, err := cs.CallTool(context.Background(), "limits", nil, nil)
			if err != nil || res.Content[0].Text != tt.want {
				t.Errorf("%s, capabilities %+v: %+v, %v; want %q", version, tt.caps, res, err, tt.want)
			}
			var server map[string]string
			settings, ok := cs.ServerExtension(ext)
			if !ok || DecodeExtensionSettings(settings, &server) != nil || server["version"] != "1" {
				t.Errorf("%s: ServerExtension: %v, %v", version, settings, ok)
			}
			if _, ok := cs.ServerExtension("other/ext"); ok {
				t.Errorf("%s: an undeclared server extension is reported", version)
			}
		}
	}
}

func TestDecodeExtensionSettingsIsStrict(t *testing.T) {
	var v struct {
		MaxItems int `json:"maxItems"`
	}
	for _, settings := range []any{
		map[string]any{"MaxItems": 3},   // names are case-sensitive
		map[string]any{"maxItems": "3"}, // wrong type
		func() {},                       // not JSON
	} {
		if err := DecodeExtensionSettings(settings, &v); err == nil && v.MaxItems != 0 {
			t.Errorf("DecodeExtensionSettings(%v) = %+v", settings, v)
		}
	}
	if err := DecodeExtensionSettings(map[string]any{"maxItems": 3}, &v); err != nil || v.MaxItems != 3 {
		t.Errorf("DecodeExtensionSettings: %+v, %v", v, err)
	}
}
