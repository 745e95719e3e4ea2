package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestSampling(t *testing.T) {
	for _, protocol := range []string{mcp.Version20251125, mcp.Version20260728} {
		var out strings.Builder
		if err := run(context.Background(), &out, protocol); err != nil {
			t.Fatalf("%s: %v", protocol, err)
		}
		want := protocol + ": The quick brown fox ... (by stand-in-model)\n"
		if out.String() != want {
			t.Errorf("output = %q, want %q", out.String(), want)
		}
	}
}
