package gosrc

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// TestLatestLikeGoList checks Latest against what `go list -m M@latest`
// answers for the same @v/list and go.mod files.
func TestLatestLikeGoList(t *testing.T) {
	k8s := map[string]string{}
	for _, f := range testutil.TxtarFile(t, "../../testdata/go/k8s-client-go.txtar") {
		k8s[f.Name] = string(f.Data)
	}
	const mod = "example.com/m"
	gomod := "module example.com/m\n\ngo 1.21\n"
	legacy := "module example.com/m\n"
	tests := []struct {
		name string
		list string
		mods map[string]string // version -> go.mod (missing: synthesized legacy go.mod)
		want string
	}{
		{"release over prerelease", "v1.0.0\nv1.1.0\nv1.2.0-rc.1\n", nil, "v1.1.0"},
		{"prerelease when no release", "v0.1.0-alpha\nv0.2.0-beta.1\n", nil, "v0.2.0-beta.1"},
		{"incompatible ignored when the module has a go.mod", "v1.2.0\nv2.0.0+incompatible\nv3.1.0+incompatible\n", map[string]string{"v1.2.0": gomod}, "v1.2.0"},
		{"incompatible used for a module that never adopted modules", "v1.2.0\nv2.0.0+incompatible\nv3.1.0+incompatible\n", map[string]string{"v1.2.0": legacy}, "v3.1.0+incompatible"},
		{"only incompatible versions", "v2.0.0+incompatible\nv2.1.0+incompatible\n", nil, "v2.1.0+incompatible"},
		{"retracted latest skipped", "v1.0.0\nv1.1.0\nv1.2.0\n", map[string]string{"v1.2.0": gomod + "retract v1.2.0 // broken\n"}, "v1.1.0"},
		{"retracted range skipped", "v1.0.0\nv1.1.0\nv1.2.0\nv1.3.0\n", map[string]string{"v1.3.0": gomod + "retract [v1.1.0, v1.3.0]\n"}, "v1.0.0"},
		{"retracted release leaves the prerelease", "v1.0.0\nv1.1.0-rc.1\n", map[string]string{"v1.0.0": gomod + "retract v1.0.0\n"}, "v1.1.0-rc.1"},
		{"every version retracted", "v1.0.0\n", map[string]string{"v1.0.0": gomod + "retract v1.0.0\n"}, "v1.0.0"},
		{"k8s.io/client-go (recorded): pre-module v1.5.x retracted", k8s["list"], map[string]string{"v1.5.2": k8s["v1.5.2.mod"]}, "v0.37.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				file, ok := strings.CutPrefix(r.URL.Path, "/"+mod+"/@v/")
				switch {
				case !ok:
					http.NotFound(w, r)
				case file == "list":
					w.Write([]byte(tt.list))
				case strings.HasSuffix(file, ".mod"):
					v := strings.TrimSuffix(file, ".mod")
					if m, ok := tt.mods[v]; ok {
						w.Write([]byte(strings.ReplaceAll(m, "k8s.io/client-go", mod)))
						return
					}
					w.Write([]byte(legacy))
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			p := NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: srv.URL, GOMODCACHE: t.TempDir()})
			got, how, err := p.Latest(context.Background(), mod)
			if err != nil || got != tt.want {
				t.Fatalf("Latest = %s (%s), %v; want %s", got, how, err, tt.want)
			}
		})
	}
}

func TestPackageDeprecation(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"Package x does things.\n\nDeprecated: use y instead.\nIt is frozen.\n", "use y instead. It is frozen."},
		{"Package x does things.\n", ""},
		{"Package x mentions Deprecated: in passing.\n", ""},
	}
	for _, tt := range tests {
		if got := deprecation(tt.doc); got != tt.want {
			t.Errorf("deprecation(%q) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}
