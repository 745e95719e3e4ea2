package auth

import (
	"context"
	"errors"
	"testing"
)

func TestDiscoverProtectedResourceSkipsAnUnusableChallengeURL(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	for _, bad := range []string{"/relative", "http://metadata.example.com/prm", "not a url"} {
		prm, err := DiscoverProtectedResource(context.Background(), nil, rs.url(), bad)
		if err != nil || prm.Resource != rs.url() {
			t.Errorf("%q: %+v, %v; want the path-aware well-known document", bad, prm, err)
		}
	}
	rs.prmPath = "-"
	if _, err := DiscoverProtectedResource(context.Background(), nil, rs.url(), ""); !errors.Is(err, ErrNoProtectedResourceMetadata) {
		t.Errorf("err = %v, want ErrNoProtectedResourceMetadata", err)
	}
}

func TestCheckResource(t *testing.T) {
	for _, tt := range []struct {
		resource, server string
		ok               bool
	}{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/mcp", true},
		{"https://mcp.example.com", "https://mcp.example.com/mcp", true},
		{"https://MCP.example.com/", "https://mcp.example.com/mcp", true},
		{"https://mcp.example.com/api", "https://mcp.example.com/api/mcp", true},
		{"https://mcp.example.com/ap", "https://mcp.example.com/api/mcp", false},
		{"https://mcp.example.com/other", "https://mcp.example.com/mcp", false},
		{"https://evil.example.com/mcp", "https://mcp.example.com/mcp", false},
		{"http://mcp.example.com/mcp", "https://mcp.example.com/mcp", false},
		{"https://mcp.example.com/mcp#x", "https://mcp.example.com/mcp", false},
		{"mcp.example.com", "https://mcp.example.com/mcp", false},
	} {
		if err := checkResource(tt.resource, tt.server); (err == nil) != tt.ok {
			t.Errorf("checkResource(%q, %q) = %v, want ok %t", tt.resource, tt.server, err, tt.ok)
		}
	}
}
