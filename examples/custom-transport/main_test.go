package main

import (
	"context"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	// 2026-07-28: server/discover and tools/call, one response each.
	want := "Hi TCP (2026-07-28; 2 messages written, 2 read)\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}
