package swift

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// fakeGitHub plays the git host (smart-HTTP refs) and codeload.
func fakeGitHub(t *testing.T) (*httptest.Server, *Source) {
	files := testutil.TxtarFile(t, "../../testdata/swift/greeter.txtar")
	tgz := testutil.TarGz(t, "swift-greeter-1.2.0/", files)
	adv := pkt("# service=git-upload-pack\n") + "0000" +
		pkt(sha('a')+" HEAD\x00symref=HEAD:refs/heads/main\n") +
		pkt(sha('a')+" refs/heads/main\n") +
		pkt(sha('b')+" refs/tags/1.0.0\n") +
		pkt(sha('c')+" refs/tags/1.2.0\n") + "0000"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/acme/swift-greeter.git/info/refs":
			if r.URL.Query().Get("service") != "git-upload-pack" {
				http.Error(w, "dumb protocol not supported", http.StatusForbidden)
				return
			}
			w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
			fmt.Fprint(w, adv)
		case "/acme/swift-greeter/tar.gz/refs/tags/1.2.0", "/acme/swift-greeter/tar.gz/" + sha('d'):
			w.Write(tgz)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &Source{Client: fetch.New(&fetch.Options{Retries: -1, BaseBackoff: time.Millisecond}), GitURL: srv.URL, CodeloadURL: srv.URL}
}

func TestDescribeSwiftPackageFromGitHost(t *testing.T) {
	srv, src := fakeGitHub(t)
	for _, ref := range []string{"acme/swift-greeter", srv.URL + "/acme/swift-greeter.git", strings.TrimPrefix(srv.URL, "http://") + "/acme/swift-greeter"} {
		pkg, err := src.Describe(context.Background(), Request{Package: ref})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if pkg.Name != "acme/swift-greeter" || pkg.Version != "1.2.0" || pkg.ResolvedFrom != "latest release tag" {
			t.Errorf("%s: %s@%s from %q", ref, pkg.Name, pkg.Version, pkg.ResolvedFrom)
		}
	}
	pkg, err := src.Describe(context.Background(), Request{Package: "acme/swift-greeter", Version: "1.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range pkg.Sections {
		titles = append(titles, s.File+":"+s.Title())
	}
	want := "README.md:(introduction)|README.md:Installation|README.md:Usage|Package.swift:Package.swift|" +
		"Sources/Greeter/Greeter.docc/GettingStarted.md:(introduction)|" +
		"Sources/Greeter/Greeter.docc/Greeter.md:(introduction)|Sources/Greeter/Greeter.docc/Greeter.md:Overview|Sources/Greeter/Greeter.docc/Greeter.md:Topics › Essentials"
	if got := strings.Join(titles, "|"); got != want {
		t.Errorf("sections:\n%s\nwant:\n%s", got, want)
	}
	if pkg.Origin != "README.md + Package.swift + 1 Swift sources + DocC" {
		t.Errorf("origin = %q", pkg.Origin)
	}
	wantInstall := "```swift\n// Package.swift\n.package(url: \"" + srv.URL + "/acme/swift-greeter.git\", from: \"1.2.0\"),\n" +
		"// in your target's dependencies:\n.product(name: \"Greeter\", package: \"swift-greeter\"),\n// in your code:\nimport Greeter\n```"
	if pkg.Install != wantInstall {
		t.Errorf("install:\n%s\nwant:\n%s", pkg.Install, wantInstall)
	}
	if len(pkg.Symbols) != 26 {
		t.Errorf("%d symbols; executable and test targets must not be scanned", len(pkg.Symbols))
	}
	manifest := pkg.Sections[3].Markdown
	for _, line := range []string{"- Modules to import: Greeter", "- Platforms: macOS 13, iOS 16.0", "- Depends on https://github.com/apple/swift-log.git \"1.0.0\"..<\"2.0.0\""} {
		if !strings.Contains(manifest, line) {
			t.Errorf("manifest section lacks %q:\n%s", line, manifest)
		}
	}
}

func TestSwiftProjectPins(t *testing.T) {
	srv, src := fakeGitHub(t)
	proj := t.TempDir()
	resolved := fmt.Sprintf(`{"pins": [{"identity": "swift-greeter", "kind": "remoteSourceControl", "location": "%s/acme/swift-greeter.git", "state": {"revision": "%s", "version": "1.0.0"}}], "version": 2}`, srv.URL, sha('b'))
	os.WriteFile(filepath.Join(proj, "Package.resolved"), []byte(resolved), 0o644)
	checkout := filepath.Join(proj, ".build", "checkouts", "swift-greeter")
	for _, f := range testutil.TxtarFile(t, "../../testdata/swift/greeter.txtar") {
		p := filepath.Join(checkout, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	// The pinned version, read offline from SwiftPM's checkout; a bare
	// identity works because the project's pins name the repository.
	for _, ref := range []string{"acme/swift-greeter", "swift-greeter"} {
		pkg, err := src.Describe(context.Background(), Request{Package: ref, ProjectPath: proj})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if pkg.Version != "1.0.0" || pkg.Registry != "local" || pkg.ResolvedFrom != "Package.resolved (local checkout)" || len(pkg.Symbols) != 26 {
			t.Errorf("%s: %s from %q via %s, %d symbols", ref, pkg.Version, pkg.ResolvedFrom, pkg.Registry, len(pkg.Symbols))
		}
	}
	// The project itself.
	pkg, err := src.Describe(context.Background(), Request{Package: ".", ProjectPath: checkout})
	if err != nil || pkg.Name != "swift-greeter" || pkg.Version != "local" || pkg.Install != "" {
		t.Fatalf("local package: %+v, %v", pkg, err)
	}
	// A revision pin without a checkout: the tarball of that commit.
	os.RemoveAll(filepath.Join(proj, ".build"))
	os.WriteFile(filepath.Join(proj, "Package.resolved"), []byte(fmt.Sprintf(`{"pins": [{"identity": "swift-greeter", "location": "%s/acme/swift-greeter", "state": {"branch": "main", "revision": "%s"}}], "version": 2}`, srv.URL, sha('d'))), 0o644)
	pkg, err = src.Describe(context.Background(), Request{Package: "acme/swift-greeter", ProjectPath: proj})
	if err != nil || pkg.Version != sha('d')[:12] || pkg.ResolvedFrom != "Package.resolved (revision)" || !strings.Contains(pkg.Install, `revision: "`+sha('d')[:12]+`"`) {
		t.Fatalf("revision pin: %+v, %v", pkg, err)
	}
}

func TestDescribeSwiftErrors(t *testing.T) {
	_, src := fakeGitHub(t)
	tests := []struct {
		name    string
		req     Request
		wantErr error
		wantMsg string
	}{
		{"unknown repo", Request{Package: "acme/nope"}, ErrNotFound, "repository acme/nope not found"},
		{"unknown tag", Request{Package: "acme/swift-greeter", Version: "1.1.0"}, ErrVersionNotFound, "nearest tags: 1.2.0, 1.0.0"},
		{"foreign host", Request{Package: "https://evil.example/acme/swift-greeter"}, ErrInvalidName, "not on 127.0.0.1"},
		{"bare name without project", Request{Package: "swift-greeter"}, ErrInvalidName, "use owner/repo"},
		{"path traversal", Request{Package: "../etc"}, ErrInvalidName, "use owner/repo"},
		{"tag without tarball", Request{Package: "acme/swift-greeter", Version: "1.0.0"}, fetch.ErrNotFound, "downloading acme/swift-greeter 1.0.0"},
		{"dot without project", Request{Package: "."}, ErrInvalidName, "needs projectPath"},
	}
	for _, tt := range tests {
		_, err := src.Describe(context.Background(), tt.req)
		if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: err = %v, want %v containing %q", tt.name, err, tt.wantErr, tt.wantMsg)
		}
	}
	if _, err := src.Describe(context.Background(), Request{Package: ".", ProjectPath: t.TempDir()}); !errors.Is(err, ErrNotPackage) {
		t.Errorf("directory without Package.swift: err = %v", err)
	}
}
