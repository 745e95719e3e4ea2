package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// A legacy session made through RequireBearerToken belongs to the token's
// principal on every instance sharing its session store: the other
// instance serves it to the same principal and refuses it to another, and
// the store holds a digest, not the principal's names.
func TestSessionBoundAcrossInstances(t *testing.T) {
	store, router := mcp.NewMemorySessionStore(), mcp.NewMemorySessionRouter()
	instance := func() string {
		s := whoServer(nil)
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{SessionStore: store, SessionRouter: router})
		ts := httptest.NewServer(mustProtect(t, testTokens, &RequireBearerTokenOptions{ResourceMetadataURL: prmURL, Scopes: testRules})(h))
		t.Cleanup(func() { h.Close(); ts.Close() })
		return ts.URL
	}
	a, b := instance(), instance()
	resp, _ := post(t, a, legacyInit(1), "Authorization", "Bearer alice-all")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize on A: %d, session %q", resp.StatusCode, sid)
	}
	pv := []string{"MCP-Protocol-Version", "2025-11-25", "Mcp-Session-Id", sid}
	for _, tt := range []struct {
		name, url, token string
		status           int
	}{
		{"bob on B first", b, "bob-all", http.StatusNotFound},
		{"alice on B", b, "alice-all", http.StatusOK},
		{"bob on B with its copy", b, "bob-all", http.StatusNotFound},
		{"bob on A", a, "bob-all", http.StatusNotFound},
		{"alice on A", a, "alice-all", http.StatusOK},
	} {
		resp, body := post(t, tt.url, legacyCall(2, "whoami"), append([]string{"Authorization", "Bearer " + tt.token}, pv...)...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.name, resp.StatusCode, body, tt.status)
		}
		if tt.status == http.StatusOK && !strings.Contains(body, "alice") {
			t.Errorf("%s: %s, want alice's answer", tt.name, body)
		}
	}
	st, err := store.Load(context.Background(), sid, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Owner) != 64 || strings.Contains(st.Owner, "alice") {
		t.Errorf("stored owner %q: want a SHA-256 digest", st.Owner)
	}
}

// Owners differ when any of issuer, subject and client differ, however
// their text runs together; the verifiers' precomputed owner is the same
// as one computed on demand.
func TestSessionOwnerDigest(t *testing.T) {
	owners := map[string]TokenInfo{}
	for _, ti := range []TokenInfo{
		{Issuer: "https://as", Subject: "alice", ClientID: "c"},
		{Issuer: "https://as", Subject: "alice", ClientID: ""},
		{Issuer: "https://as", Subject: "alicec", ClientID: ""},
		{Issuer: "https://asalice", Subject: "", ClientID: "c"},
		{Issuer: "https://other", Subject: "alice", ClientID: "c"},
		{Issuer: "https://as", Subject: "alice\x00", ClientID: "c"},
		{Issuer: "https://as", Subject: `alice"`, ClientID: "c"},
	} {
		o := ti.sessionOwner()
		if prev, dup := owners[o]; dup {
			t.Errorf("%+v and %+v share an owner", prev, ti)
		}
		owners[o] = ti
		if pre := ti.withOwner().sessionOwner(); pre != o {
			t.Errorf("%+v: precomputed owner %q, on demand %q", ti, pre, o)
		}
	}
}
