package webhook

import (
	"errors"
	"regexp"
	"testing"
)

// TestSubscriptionID: the id is deterministic over (principal, url, name,
// arguments as canonical JSON) and changes when any of them changes.
func TestSubscriptionID(t *testing.T) {
	id := func(principal, url, name, args string) string {
		t.Helper()
		k, err := NewKey(principal, url, name, []byte(args))
		if err != nil {
			t.Fatal(err)
		}
		return k.ID()
	}
	base := id("alice", "https://hooks.example.com/a", "email.received", `{"folder":"inbox","limit":10}`)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(base) {
		t.Fatalf("id %q is not 32 hex digits", base)
	}
	same := []string{
		`{"limit":10,"folder":"inbox"}`,
		" {\n \"folder\" : \"inbox\" , \"limit\" : 1e1 } ",
		`{"folder":"\u0069nbox","limit":10.0}`,
	}
	for _, args := range same {
		if got := id("alice", "https://hooks.example.com/a", "email.received", args); got != base {
			t.Errorf("arguments %s give another id than equal ones", args)
		}
	}
	different := map[string]string{
		"principal":        id("bob", "https://hooks.example.com/a", "email.received", `{"folder":"inbox","limit":10}`),
		"url":              id("alice", "https://hooks.example.com/b", "email.received", `{"folder":"inbox","limit":10}`),
		"name":             id("alice", "https://hooks.example.com/a", "email.sent", `{"folder":"inbox","limit":10}`),
		"arguments":        id("alice", "https://hooks.example.com/a", "email.received", `{"folder":"inbox","limit":11}`),
		"field boundaries": id("alice", "https://hooks.example.com/aemail.received", "", `{"folder":"inbox","limit":10}`),
	}
	for what, got := range different {
		if got == base {
			t.Errorf("changing the %s keeps the id", what)
		}
	}
	if id("alice", "u", "n", "") != id("alice", "u", "n", "{}") {
		t.Error("absent arguments differ from {}")
	}
}

// TestNewKeyRejects: arguments must be one JSON object, without duplicate
// members.
func TestNewKeyRejects(t *testing.T) {
	for _, args := range []string{`[]`, `"x"`, `null`, `1`, `{`, `{"a":1,"a":2}`, `{} {}`, "{\"a\":\"\xff\"}"} {
		if _, err := NewKey("alice", "u", "n", []byte(args)); !errors.Is(err, ErrInvalidArguments) {
			t.Errorf("NewKey(%s) = %v, want ErrInvalidArguments", args, err)
		}
	}
}
