package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRun builds the events server and runs the client against it.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, "../server").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	if err := run(ctx, &out, []string{bin}); err != nil {
		t.Fatal(err)
	}
	want := `event type inbox.message (poll, push): A message arrived in the inbox
push stream of ada's messages: hello
push stream of ada's messages: lunch?
poll of all messages: ada: hello
poll of all messages: bob: report
poll of all messages: ada: lunch?
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
