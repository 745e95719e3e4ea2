package gosrc

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// recordedGoPackages are the Go packages testdata/go/proxy holds (module,
// package directories inside it, comma-separated: the package asked about
// and those whose types it embeds), recorded with PKGDOCS_RECORD=1.
var recordedGoPackages = [][2]string{
	{"github.com/spf13/cobra", ""},
	{"github.com/google/uuid", ""},
	{"golang.org/x/mod", "semver"},
	{"github.com/stretchr/testify", "assert"},
	{"gopkg.in/yaml.v3", ""},
	{"github.com/gorilla/mux", ""},
	{"go.uber.org/zap", ",zapcore"},
	{"github.com/pkg/errors", ""},
	{"golang.org/x/sync", "errgroup"},
	{"github.com/sirupsen/logrus", ""},
	{"golang.org/x/time", "rate"},
	{"github.com/BurntSushi/toml", ""},
	{"github.com/cenkalti/backoff/v4", ""},
	{"github.com/spf13/pflag", ""},
	{"github.com/go-chi/chi/v5", ""},
	{"github.com/golang-jwt/jwt/v5", ""},
	{"github.com/redis/go-redis/v9", ""},
	{"go.opentelemetry.io/otel/trace", ",embedded"},
	{"github.com/rs/zerolog", ""},
	{"github.com/jackc/pgx/v5", ",pgconn"},
	{"github.com/gin-gonic/gin", ""},
}

// TestRecordGoFixtures re-records testdata/go/proxy from the live module
// proxy. It runs only with PKGDOCS_RECORD=1; PKGDOCS_RECORD_MODULES, a
// comma-separated list of module paths, re-records only those (the others'
// questions name the versions they were recorded at).
func TestRecordGoFixtures(t *testing.T) {
	if os.Getenv("PKGDOCS_RECORD") != "1" {
		t.Skip("set PKGDOCS_RECORD=1 to re-record Go fixtures from the live module proxy")
	}
	dir := "../../testdata/go/proxy"
	os.MkdirAll(dir, 0o755)
	p := NewProxy(fetch.New(nil), ProxyConfig{GOPROXY: "https://proxy.golang.org"})
	only := os.Getenv("PKGDOCS_RECORD_MODULES")
	for _, mp := range recordedGoPackages {
		if only != "" && !slices.Contains(strings.Split(only, ","), mp[0]) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		fx, err := recordModule(ctx, p, mp[0], mp[1])
		cancel()
		if err != nil {
			t.Errorf("%s: %v", mp[0], err)
			continue
		}
		data, _ := testutil.FormatGoFixture(fx)
		file := filepath.Join(dir, strings.ReplaceAll(mp[0], "/", "__")+".txtar")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s@%s: %d files, %d bytes", mp[0], fx.Version, len(fx.Files), len(data))
	}
}

func recordModule(ctx context.Context, p *Proxy, mod, dir string) (testutil.GoFixture, error) {
	list, err := p.List(ctx, mod)
	if err != nil {
		return testutil.GoFixture{}, err
	}
	v, _, err := p.Latest(ctx, mod)
	if err != nil {
		return testutil.GoFixture{}, err
	}
	data, _, err := p.Zip(ctx, mod, v, 200<<20)
	if err != nil {
		return testutil.GoFixture{}, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return testutil.GoFixture{}, err
	}
	fx := testutil.GoFixture{Module: mod, Version: v, List: list}
	var dirs []string
	for _, d := range strings.Split(dir, ",") {
		dirs = append(dirs, path.Clean("./"+d))
	}
	prefix := mod + "@" + v + "/"
	for _, zf := range zr.File {
		name := strings.TrimPrefix(zf.Name, prefix)
		lower := strings.ToLower(name)
		keep := name == "go.mod" || !strings.Contains(name, "/") && strings.HasPrefix(lower, "readme") ||
			slices.Contains(dirs, path.Dir(name)) && strings.HasSuffix(name, ".go")
		if !keep || zf.UncompressedSize64 > 256<<10 {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return fx, err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fx, err
		}
		if !readByPkgdocs(name, b) {
			continue
		}
		fx.Files = append(fx.Files, testutil.File{Name: name, Data: b})
	}
	return fx, nil
}

// readByPkgdocs reports whether pkgdocs reads a file of a package's
// directory: every Go file but tests without examples.
func readByPkgdocs(name string, data []byte) bool {
	return !strings.HasSuffix(name, "_test.go") || bytes.Contains(data, []byte("func Example"))
}
