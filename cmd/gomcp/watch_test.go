package main

import (
	"strings"
	"testing"
)

// TestWatch prints the everything-server's resource updates as NDJSON,
// in both eras, over HTTP and stdio.
func TestWatch(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the server's periodic updates")
	}
	for _, era := range eras {
		for _, stdio := range []bool{false, true} {
			t.Run(era, func(t *testing.T) {
				args := []string{"watch", "--json", "--limit", "1", "--protocol", era}
				if stdio {
					args = append(args, "test://watched-resource", "--", everythingBin)
				} else {
					args = append(args, everythingURL, "test://watched-resource")
				}
				r := runCLI(t, args...)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				var n notification
				if err := jsonUnmarshal([]byte(r.stdout), &n); err != nil || n.Method != "notifications/resources/updated" || !strings.Contains(r.stdout, `"uri":"test://watched-resource"`) {
					t.Fatalf("stdout %q: %v", r.stdout, err)
				}
			})
		}
	}
}
