package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRun builds the hello server and runs the client against it.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "hello")
	if out, err := exec.Command("go", "build", "-o", bin, "../hello").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	if err := run(ctx, &out, []string{bin}, "gopher"); err != nil {
		t.Fatal(err)
	}
	want := "connected to greeter v1.0.0 (protocol 2026-07-28)\ntool greet: say hi\nHi gopher\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
