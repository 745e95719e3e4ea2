package service

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// Live tests talk to the real npm registry and Go module proxy (the only
// upstreams this project's CI machines reach). They run only with
// PKGDOCS_LIVE=1 and never under -short:
//
//	PKGDOCS_LIVE=1 go test ./internal/service -run Live -v
func liveService(t *testing.T) *Service {
	t.Helper()
	if os.Getenv("PKGDOCS_LIVE") != "1" || testing.Short() {
		t.Skip("live test: set PKGDOCS_LIVE=1 to run against the npm registry and the Go module proxy")
	}
	s, err := New(&Config{NPM: NPMConfig{Values: map[string]string{"registry": "https://registry.npmjs.org/"}}, GOMODCACHE: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLiveGoModuleProxy(t *testing.T) {
	s := liveService(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "golang.org/x/mod/semver", Symbol: "Compare"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Markdown, "# golang.org/x/mod/semver@v") || !strings.Contains(r.Markdown, "func Compare(v, w string) int") {
		t.Fatalf("unexpected answer:\n%s", r.Markdown)
	}
	if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "golang.org/x/mod/semverr"}); err == nil {
		t.Fatal("a missing package must fail")
	}
}

func TestLiveNPMRegistry(t *testing.T) {
	s := liveService(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// semver ships no .d.ts: its API comes from @types/semver.
	r, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "semver", Version: "^7", MaxTokens: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Markdown, "# semver@7.") || !strings.Contains(r.Origin, "@types/semver@7.") || r.Tokens > 2000 {
		t.Fatalf("origin %q, %d tokens:\n%s", r.Origin, r.Tokens, r.Markdown)
	}
	sr, err := s.SearchPackageDocs(ctx, SearchArgs{Package: "semver", Version: "^7", Language: "npm", Query: "satisfies"})
	if err != nil || len(sr.Hits) == 0 || sr.Hits[0].Title != "satisfies" {
		t.Fatalf("search: %+v, %v", sr, err)
	}
	if _, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "semver", Version: "999.0.0"}); err == nil || !strings.Contains(err.Error(), "nearest") {
		t.Fatalf("unknown version: %v", err)
	}
}
