package mcp

import (
	"context"
	"testing"
	"time"
)

func TestCacheHintsPerServerAndPerItem(t *testing.T) {
	server := NewServer("s", "v1", &ServerOptions{CacheHints: map[string]CacheHint{
		MethodListTools: {TTL: time.Minute, Scope: CacheScopePublic},
		"":              {TTL: 5 * time.Second},
	}})
	server.AddTools(echoTool())
	server.AddResources(&ServerResource{
		Resource: &Resource{URI: "test://fixed", Name: "fixed"},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			ttl := int64(42)
			return &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents(p.URI, "text/plain", "x")}, TTLMs: &ttl, CacheScope: CacheScopePublic}, nil
		},
	})
	cs, _ := connect(t, server, nil)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tools.TTLMs == nil || *tools.TTLMs != 60000 || tools.CacheScope != CacheScopePublic {
		t.Errorf("tools/list hints %v %q, want 60000 public", tools.TTLMs, tools.CacheScope)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if list.TTLMs == nil || *list.TTLMs != 5000 || list.CacheScope != CacheScopePrivate {
		t.Errorf("resources/list hints %v %q, want the default entry: 5000 private", list.TTLMs, list.CacheScope)
	}
	read, err := cs.ReadResource(ctx, &ReadResourceParams{URI: "test://fixed"})
	if err != nil {
		t.Fatal(err)
	}
	if read.TTLMs == nil || *read.TTLMs != 42 || read.CacheScope != CacheScopePublic {
		t.Errorf("resources/read hints %v %q, want the handler's own: 42 public", read.TTLMs, read.CacheScope)
	}
}
