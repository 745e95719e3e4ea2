package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestRoots(t *testing.T) {
	for _, protocol := range []string{mcp.Version20251125, mcp.Version20260728} {
		var out strings.Builder
		if err := run(context.Background(), &out, protocol); err != nil {
			t.Fatalf("%s: %v", protocol, err)
		}
		want := protocol + ": file:///home/ada/project\n" +
			protocol + ": file:///home/ada/project file:///home/ada/notes\n"
		if out.String() != want {
			t.Errorf("output = %q, want %q", out.String(), want)
		}
	}
}
