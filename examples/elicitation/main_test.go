package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestElicitation(t *testing.T) {
	for _, protocol := range []string{mcp.Version20251125, mcp.Version20260728} {
		var out strings.Builder
		if err := run(context.Background(), &out, protocol); err != nil {
			t.Fatalf("%s: %v", protocol, err)
		}
		want := protocol + " book_table: booked a table for 4 on 2026-12-24\n" +
			protocol + " connect_account: sign-in accept\n"
		if out.String() != want {
			t.Errorf("output = %q, want %q", out.String(), want)
		}
	}
}
