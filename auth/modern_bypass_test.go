package auth

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestModernHeadersCannotHideAMethod: in 2026-07-28 the middleware reads
// the method and name from headers; a request whose body says otherwise
// must not run.
func TestModernHeadersCannotHideAMethod(t *testing.T) {
	var runs atomic.Int64
	ts, _ := protected(t, nil, &runs)
	hdr := func(method, name string) []string {
		h := []string{"Authorization", "Bearer alice-basic", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
		if name != "" {
			h = append(h, "Mcp-Name", name)
		}
		return h
	}
	call := modernCall("whoami")
	note := strings.Replace(call, `"id":1,`, "", 1)
	for _, tt := range []struct {
		name, body string
		headers    []string
	}{
		{"method header lies", call, hdr("tools/list", "")},
		{"name header lies", call, hdr("tools/call", "greet")},
		{"no name header", call, hdr("tools/call", "")},
		{"no method header", call, []string{"Authorization", "Bearer alice-basic", "MCP-Protocol-Version", "2026-07-28"}},
		{"request sent as a notification", note, hdr("notifications/initialized", "")},
		{"batch", "[" + call + "]", hdr("tools/list", "")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL, tt.body, tt.headers...)
			if runs.Load() != 0 {
				t.Fatalf("whoami ran without profile:read: %d %s", resp.StatusCode, body)
			}
			if resp.StatusCode == http.StatusOK && strings.Contains(body, `"result"`) {
				t.Errorf("answered with a result: %s", body)
			}
		})
	}
}
