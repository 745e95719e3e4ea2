// Package swift documents Swift packages: Package.swift (parsed as text,
// never executed), the README, the public declarations of the library
// modules with their /// docs, and DocC catalogs. Sources come from a
// GitHub-style host (tags over git's smart HTTP protocol, tarballs from a
// codeload host), from SwiftPM's local checkouts, or from a local package
// directory. It never runs swift.
package swift

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// Sentinel errors.
var (
	ErrNotFound        = errors.New("not found")
	ErrVersionNotFound = errors.New("version not found")
	ErrInvalidName     = errors.New("invalid Swift package reference")
)

// Source documents Swift packages. Hosts come from configuration, never
// from tool arguments: a repository URL naming another host is refused.
type Source struct {
	Client      *fetch.Client
	GitURL      string // git host; default https://github.com
	CodeloadURL string // tarball host; default https://codeload.github.com
}

// Request names the package: "owner/repo", a repository URL on the git
// host, or "." for the package at ProjectPath.
type Request struct {
	Package     string
	Version     string // tag (1.2.0 or v1.2.0), branch or commit; "" for Package.resolved, else the latest tag
	ProjectPath string
}

func (s *Source) defaults() {
	if s.GitURL == "" {
		s.GitURL = "https://github.com"
	}
	if s.CodeloadURL == "" {
		s.CodeloadURL = "https://codeload.github.com"
	}
}

var segmentRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// repo is a repository on the git host.
type repo struct{ owner, name string }

func (r repo) identity() string { return strings.ToLower(r.name) }

// parseRepo accepts owner/repo, https://host/owner/repo(.git),
// host/owner/repo and git@host:owner/repo.git, for the configured host.
func (s *Source) parseRepo(ref string) (repo, error) {
	host := hostOf(s.GitURL)
	r := strings.TrimSpace(ref)
	r = strings.TrimSuffix(strings.TrimSuffix(r, "/"), ".git")
	switch {
	case strings.HasPrefix(r, "git@"):
		h, rest, _ := strings.Cut(strings.TrimPrefix(r, "git@"), ":")
		if !strings.EqualFold(h, host) {
			return repo{}, fmt.Errorf("%w: %q is not on %s (the git host is configured, not taken from arguments)", ErrInvalidName, ref, host)
		}
		r = rest
	case strings.Contains(r, "://"):
		u, err := url.Parse(r)
		if err != nil || !strings.EqualFold(u.Host, host) {
			return repo{}, fmt.Errorf("%w: %q is not on %s (the git host is configured, not taken from arguments)", ErrInvalidName, ref, host)
		}
		r = strings.Trim(u.Path, "/")
	case strings.HasPrefix(strings.ToLower(r), strings.ToLower(host)+"/"):
		r = r[len(host)+1:]
	}
	owner, name, ok := strings.Cut(r, "/")
	if !ok || strings.Contains(name, "/") || !segmentRE.MatchString(owner) || !segmentRE.MatchString(name) || owner == "." || owner == ".." || name == "." || name == ".." {
		return repo{}, fmt.Errorf("%w: %q (use owner/repo, e.g. apple/swift-argument-parser, or a repository URL)", ErrInvalidName, ref)
	}
	return repo{owner: owner, name: strings.TrimSuffix(name, ".git")}, nil
}

// Describe documents req.Package.
func (s *Source) Describe(ctx context.Context, req Request) (*model.Package, error) {
	s.defaults()
	ref := strings.TrimSpace(req.Package)
	if ref == "." || ref == "" {
		if req.ProjectPath == "" {
			return nil, fmt.Errorf("%w: package \".\" needs projectPath", ErrInvalidName)
		}
		return s.describeLocal(req.ProjectPath, "", "", "local package directory", "local")
	}
	var pin *lockfile.SwiftPin
	if req.ProjectPath != "" {
		pin = findPin(req.ProjectPath, ref)
		if pin != nil && !strings.Contains(ref, "/") {
			ref = pin.Location // a bare identity, resolved by the project
		}
	}
	r, err := s.parseRepo(ref)
	if err != nil {
		return nil, err
	}
	location := strings.TrimSuffix(s.GitURL, "/") + "/" + r.owner + "/" + r.name + ".git"
	if req.Version == "" && pin != nil && (pin.Version != "" || pin.Revision != "") {
		if dir := checkoutDir(req.ProjectPath, r, pin); dir != "" {
			v := firstSet(pin.Version, pin.Revision)
			return s.describeLocal(dir, r.identity(), location, "Package.resolved (local checkout)", v)
		}
	}
	refs, err := s.refs(ctx, r)
	if err != nil {
		return nil, err
	}
	target, version, how, err := choose(refs, r, req.Version, pin)
	if err != nil {
		return nil, err
	}
	tarball := strings.TrimSuffix(s.CodeloadURL, "/") + "/" + r.owner + "/" + r.name + "/tar.gz/" + target
	resp, err := s.Client.Do(ctx, fetch.Request{URL: tarball, MaxBytes: 100 << 20})
	if err != nil {
		return nil, fmt.Errorf("downloading %s/%s %s: %w", r.owner, r.name, version, err)
	}
	tree, err := archive.ReadTarGz(resp.Body, archive.Options{StripFirst: true, Keep: wanted, Limits: archive.Limits{MaxFileSize: 1 << 20}, Progress: progress.FromContext(ctx)})
	if err != nil {
		return nil, fmt.Errorf("%s/%s %s: %w", r.owner, r.name, version, err)
	}
	pkg, err := Extract(tree, r.identity(), location, requirement(version, strings.HasPrefix(target, "refs/tags/")))
	if err != nil {
		return nil, fmt.Errorf("%s/%s %s: %w", r.owner, r.name, version, err)
	}
	pkg.Name, pkg.Version, pkg.Ecosystem = r.owner+"/"+r.name, version, model.Swift
	pkg.Registry, pkg.SourceURL, pkg.ResolvedFrom = hostOf(s.GitURL), tarball, how
	return pkg, nil
}

// refs lists the repository's tags and branches.
func (s *Source) refs(ctx context.Context, r repo) (*Refs, error) {
	u := strings.TrimSuffix(s.GitURL, "/") + "/" + r.owner + "/" + r.name + ".git/info/refs?service=git-upload-pack"
	resp, err := s.Client.Do(ctx, fetch.Request{URL: u, Header: http.Header{"Accept": {"application/x-git-upload-pack-advertisement"}}, MaxBytes: 16 << 20})
	switch {
	case errors.Is(err, fetch.ErrNotFound), errors.Is(err, fetch.ErrUnauthorized):
		return nil, fmt.Errorf("repository %s/%s not found on %s (private repositories are not supported): %w", r.owner, r.name, hostOf(s.GitURL), ErrNotFound)
	case err != nil:
		return nil, err
	}
	return ParseRefs(resp.Body)
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// choose picks what to download: a tag, a branch's or pin's commit, or
// the latest release tag. It returns the codeload path suffix.
func choose(refs *Refs, r repo, version string, pin *lockfile.SwiftPin) (target, shown, how string, err error) {
	switch {
	case version == "" && pin != nil && pin.Version != "":
		version, how = pin.Version, "Package.resolved"
	case version == "" && pin != nil && pin.Revision != "":
		return pin.Revision, pin.Revision[:min(12, len(pin.Revision))], "Package.resolved (revision)", nil
	case version == "" || version == "latest":
		if t := refs.LatestTag(); t != "" {
			return "refs/tags/" + t, t, "latest release tag", nil
		}
		if refs.Head == "" {
			return "", "", "", fmt.Errorf("repository %s/%s has no tags and no HEAD: %w", r.owner, r.name, ErrVersionNotFound)
		}
		return refs.Head, refs.Head[:12], "default branch (no release tags)", nil
	default:
		how = "explicit"
	}
	if shaRE.MatchString(version) {
		return version, version[:12], how, nil
	}
	if t, ok := refs.FindTag(version); ok {
		return "refs/tags/" + t, t, how, nil
	}
	if sha, ok := refs.Branch(version); ok {
		return sha, version, "branch " + version, nil
	}
	return "", "", "", fmt.Errorf("%s/%s has no tag or branch %q; nearest tags: %s: %w", r.owner, r.name, version, strings.Join(refs.NearestTags(version), ", "), ErrVersionNotFound)
}

// requirement is the .package(...) version requirement for an install line.
func requirement(version string, tagged bool) string {
	if tagged {
		return fmt.Sprintf("from: %q", strings.TrimPrefix(version, "v"))
	}
	return fmt.Sprintf("revision: %q", version)
}

// findPin looks up ref (owner/repo, URL or identity) in the project's
// Package.resolved.
func findPin(project, ref string) *lockfile.SwiftPin {
	for _, rel := range []string{"Package.resolved", ".swiftpm/xcode/package.xcworkspace/xcshareddata/swiftpm/Package.resolved"} {
		data, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		pins, err := lockfile.SwiftPins(data)
		if err != nil {
			continue
		}
		want := lockfile.RepoIdentity(ref)
		for i := range pins {
			if pins[i].Identity == want {
				return &pins[i]
			}
		}
	}
	return nil
}

// checkoutDir returns SwiftPM's checkout of the pinned repository under
// project/.build/checkouts, if present.
func checkoutDir(project string, r repo, pin *lockfile.SwiftPin) string {
	for _, name := range []string{r.name, r.identity(), pin.Identity} {
		dir := filepath.Join(project, ".build", "checkouts", name)
		if st, err := os.Stat(filepath.Join(dir, "Package.swift")); err == nil && !st.IsDir() {
			return dir
		}
	}
	return ""
}

// describeLocal documents the package in a local directory.
func (s *Source) describeLocal(dir, identity, location, how, v string) (*model.Package, error) {
	tree, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	if identity == "" {
		identity = strings.ToLower(filepath.Base(dir))
	}
	pkg, err := Extract(tree, identity, location, requirement(v, v != "local" && !shaRE.MatchString(v)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	name := identity
	if man, err := ParseManifest(mustGet(tree, "Package.swift")); err == nil && man.Name != "" && location == "" {
		name = man.Name
	}
	pkg.Name, pkg.Version, pkg.Ecosystem = name, v, model.Swift
	pkg.Registry, pkg.SourceURL, pkg.ResolvedFrom = "local", dir, how
	return pkg, nil
}

func mustGet(tree *archive.Tree, name string) []byte {
	b, _ := tree.Get(name)
	return b
}

// wanted selects the files read from a package tarball.
func wanted(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case name == "Package.swift", !strings.Contains(name, "/") && strings.HasPrefix(lower, "readme"):
		return true
	case strings.HasPrefix(name, "Tests/") || strings.HasPrefix(name, ".build/"):
		return false
	case strings.HasSuffix(name, ".swift"):
		return true
	case strings.HasSuffix(lower, ".md"):
		return strings.Contains(name, ".docc/")
	}
	return false
}

const (
	maxLocalFiles   = 5000 // entries looked at
	maxLocalDirs    = 1000
	maxLocalBytes   = 64 << 20
	maxLocalFileLen = 1 << 20
)

// readDir reads the wanted files of a local package directory, without
// following symbolic links or leaving dir. A directory without
// Package.swift is refused before anything else is read; then only the
// top level, Sources/ and DocC catalogs are walked, and at most
// maxLocalDirs directories and maxLocalFiles entries are looked at.
func readDir(dir string) (*archive.Tree, error) {
	files := map[string][]byte{}
	total, count, dirs := int64(0), 0, 0
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Lstat(filepath.Join(root, "Package.swift")); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s has no Package.swift: %w", dir, ErrNotPackage)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if count++; count > maxLocalFiles {
			return fs.SkipAll
		}
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			base := d.Name()
			top := !strings.Contains(rel, "/")
			if strings.HasPrefix(base, ".") || base == "Tests" || base == "node_modules" ||
				top && base != "Sources" && !strings.HasSuffix(base, ".docc") {
				return filepath.SkipDir
			}
			if dirs++; dirs > maxLocalDirs {
				return fs.SkipAll
			}
			return nil
		}
		if !d.Type().IsRegular() || !wanted(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxLocalFileLen || total+info.Size() > maxLocalBytes {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			files[path.Clean(rel)] = data
			total += int64(len(data))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := files["Package.swift"]; !ok {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotPackage)
	}
	return archive.FromFiles(files), nil
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func hostOf(u string) string {
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		return pu.Host
	}
	return u
}
