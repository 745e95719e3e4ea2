package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// PrincipalFromContext reports the nearer of WithPrincipal and
// WithSessionOwner; SessionOwnerFromContext reports only the latter, and
// neither name is printed with the context.
func TestPrincipalFromContext(t *testing.T) {
	type otherKey struct{}
	parent := context.WithValue(context.Background(), otherKey{}, "v")
	owner := mcp.WithSessionOwner(parent, "alice")
	principal := mcp.WithPrincipal(parent, "bob")
	for _, tt := range []struct {
		name              string
		ctx               context.Context
		principal, holder string
	}{
		{"none", parent, "", ""},
		{"WithPrincipal", principal, "bob", ""},
		{"WithSessionOwner", owner, "alice", "alice"},
		{"principal inside an owner", mcp.WithPrincipal(owner, "carol"), "carol", "alice"},
		{"owner inside a principal", mcp.WithSessionOwner(principal, "dave"), "dave", "dave"},
		{"nearer principal", mcp.WithPrincipal(context.WithValue(principal, otherKey{}, "w"), "erin"), "erin", ""},
		{"empty principal hides none of the owner", mcp.WithPrincipal(owner, ""), "", "alice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := mcp.PrincipalFromContext(tt.ctx); got != tt.principal {
				t.Errorf("PrincipalFromContext = %q, want %q", got, tt.principal)
			}
			if got := mcp.SessionOwnerFromContext(tt.ctx); got != tt.holder {
				t.Errorf("SessionOwnerFromContext = %q, want %q", got, tt.holder)
			}
			if tt.ctx.Value(otherKey{}) == nil {
				t.Error("the parent's value is lost")
			}
			if s := fmt.Sprint(tt.ctx); tt.principal != "" && strings.Contains(s, tt.principal) {
				t.Errorf("the context prints its principal: %s", s)
			}
		})
	}
}

// principalHeader is the header principalFromHeader trusts, as
// authorization middleware trusts a verified token.
const principalHeader = "X-Test-Principal"

// principalFromHeader names the principal of principalHeader as the auth
// module does: the session owner of a request that may belong to a
// session, the principal alone of a 2026-07-28 POST.
func principalFromHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.Header.Get(principalHeader); p != "" {
			if r.Method == http.MethodPost && r.Header.Get("Mcp-Protocol-Version") == mcp.Version20260728 {
				r = r.WithContext(mcp.WithPrincipal(r.Context(), p))
			} else {
				r = r.WithContext(mcp.WithSessionOwner(r.Context(), p))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// A tool handler behind a StreamableHTTPHandler sees the principal the
// middleware named, in both eras, and none without it.
func TestPrincipalReachesHandlers(t *testing.T) {
	server := mcp.NewServer("principal", "v1", nil)
	server.AddTools(mcp.NewTool("whoami", "the caller's principal", func(ctx context.Context, _ *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent("principal=" + mcp.PrincipalFromContext(ctx))}, nil
	}))
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(principalFromHeader(h))
	t.Cleanup(func() { h.Close(); ts.Close() })
	for _, v := range eras {
		for _, p := range []string{"alice", ""} {
			t.Run(v+"/"+p, func(t *testing.T) {
				hdr := http.Header{}
				if p != "" {
					hdr.Set(principalHeader, p)
				}
				tr := mcp.NewStreamableClientTransport(ts.URL, &mcp.StreamableClientTransportOptions{Header: hdr})
				cs, err := mcp.NewClient("c", "v1", &mcp.ClientOptions{ProtocolVersion: v}).Connect(context.Background(), tr)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				res, err := cs.CallTool(context.Background(), "whoami", nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := res.Content[0].Text, "principal="+p; got != want {
					t.Errorf("the handler saw %q, want %q", got, want)
				}
			})
		}
	}
}
