package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestQuickstart builds the program, as a reader of the README would, and
// runs it: it starts itself as the server and prints the tool's answer.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "quickstart")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if string(out) != "Hi you\n" {
		t.Errorf("output = %q, want %q", out, "Hi you\n")
	}
}
