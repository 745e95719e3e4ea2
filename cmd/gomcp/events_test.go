package main

import (
	"strings"
	"testing"
)

// TestEvents lists the everything-server's event types, then polls and
// streams test.tick with --limit 1 while emit_tick emits ticks, in both
// protocol eras.
func TestEvents(t *testing.T) {
	r := runCLI(t, "events", "--json", everythingURL, "list")
	if r.code != 0 || !strings.Contains(r.stdout, `"name":"test.tick"`) || !strings.Contains(r.stdout, `"delivery":["poll","push","webhook"]`) {
		t.Fatalf("events list: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	for _, protocol := range []string{"legacy", "modern"} {
		for _, op := range []string{"poll", "stream"} {
			t.Run(protocol+"/"+op, func(t *testing.T) {
				done := make(chan result, 1)
				go func() {
					done <- runCLI(t, "events", "--json", "--limit", "1", "--protocol", protocol, everythingURL, op, "test.tick")
				}()
				// The poll or stream starts from now: tick until it has
				// printed one.
				for {
					select {
					case r := <-done:
						if r.code != 0 || !strings.Contains(r.stdout, `"name":"test.tick"`) || !strings.Contains(r.stdout, `"data":{"n":`) {
							t.Fatalf("events %s: exit %d, stdout %q, stderr %s", op, r.code, r.stdout, r.stderr)
						}
						return
					default:
					}
					if r := runCLI(t, "call", everythingURL, "emit_tick"); r.code != 0 {
						t.Fatalf("emit_tick: exit %d: %s", r.code, r.stderr)
					}
				}
			})
		}
	}
	if r := runCLI(t, "events", everythingURL, "frob"); r.code != exitUsage {
		t.Fatalf("unknown operation: exit %d", r.code)
	}
	if r := runCLI(t, "events", everythingURL, "poll"); r.code != exitUsage {
		t.Fatalf("poll without a name: exit %d", r.code)
	}
}
