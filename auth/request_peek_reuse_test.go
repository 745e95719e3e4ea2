package auth

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPeekedNamesOutliveTheBuffer: the tool and resource names read from
// a legacy body share its pooled buffer while the middleware decides, yet
// what ScopeRules.Func is given stays intact after the buffer serves other
// requests, and each next handler reads its own body unchanged.
func TestPeekedNamesOutliveTheBuffer(t *testing.T) {
	var kept []string
	rules := testRules
	rules.Func = func(method, name string) []string {
		kept = append(kept, name)
		return nil
	}
	var bodies []string
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
	})
	h := mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: rules})(next)
	tests := []struct {
		body, name string
	}{
		{legacyCall(1, "greet"), "greet"},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///secret"}}`, "file:///secret"},
		{legacyCall(3, "xxxxx"), "xxxxx"}, // the same length as greet, over the same bytes
		{`[` + legacyCall(4, "a") + `,` + legacyCall(5, "bb") + `]`, "a bb"},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"t\u00e9","arguments":{}}}`, "té"}, // the tokenizer's path
	}
	var want []string
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tt.body))
		r.Header.Set("Authorization", "Bearer alice-all")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tt.body, w.Code, w.Body)
		}
		want = append(want, strings.Fields(tt.name)...)
	}
	if fmt.Sprint(kept) != fmt.Sprint(want) {
		t.Errorf("ScopeRules.Func kept %q, want %q", kept, want)
	}
	for i, tt := range tests {
		if bodies[i] != tt.body {
			t.Errorf("next handler read %q, want %q", bodies[i], tt.body)
		}
	}
}
