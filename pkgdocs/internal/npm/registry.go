package npm

import (
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// Sentinel errors.
var (
	ErrNotFound        = errors.New("not found")
	ErrInvalidName     = errors.New("invalid npm package name")
	ErrIntegrity       = errors.New("tarball integrity check failed")
	ErrVersionNotFound = errors.New("version not found")
)

var nameRE = regexp.MustCompile(`^(?:@[a-zA-Z0-9-*~][a-zA-Z0-9-*._~]*/)?[a-zA-Z0-9-~][a-zA-Z0-9-._~]*$`)

// ValidateName checks an npm package name.
func ValidateName(name string) error {
	if len(name) == 0 || len(name) > 214 || !nameRE.MatchString(name) {
		return fmt.Errorf("%w: %q", ErrInvalidName, name)
	}
	return nil
}

// escapeName encodes a scoped name's slash for registry URLs.
func escapeName(name string) string {
	return strings.Replace(url.PathEscape(name), "%40", "@", 1)
}

// Source documents npm packages.
type Source struct {
	Client *fetch.Client
	// Config returns the npm configuration for a project ("" for none).
	Config func(projectPath string) (*Config, error)
	// Offline answers only from packages installed under the project.
	Offline bool
}

// Request names the package to document.
type Request struct {
	Name, Version, ProjectPath string
}

// versionDoc is the part of a version document pkgdocs uses.
type versionDoc struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	Types       string          `json:"types"`
	Typings     string          `json:"typings"`
	Main        string          `json:"main"`
	Exports     json.RawMessage `json:"exports"`
	Deprecated  deprecation     `json:"deprecated"`
	Dist        struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
		Shasum    string `json:"shasum"`
	} `json:"dist"`
}

// deprecation is a version's "deprecated" field: a message, or (from
// some registries) a boolean.
type deprecation string

func (d *deprecation) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*d = deprecation(s)
		return nil
	}
	var v bool
	if json.Unmarshal(b, &v) == nil && v {
		*d = "deprecated"
	}
	return nil
}

type packument struct {
	Name     string                `json:"name"`
	DistTags map[string]string     `json:"dist-tags"`
	Versions map[string]versionDoc `json:"versions"`
	Readme   string                `json:"readme"`
}

// Describe documents req.Name: a package, or one module of it when the
// name is an import specifier with a subpath ("pkg/sub", "@scope/pkg/sub"),
// resolved through the package's exports map as TypeScript does.
func (s *Source) Describe(ctx context.Context, req Request) (*model.Package, error) {
	spec := req.Name
	name, subpath := SplitSpecifier(spec)
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	if subpath != "" {
		if err := validSubpath(subpath); err != nil {
			return nil, err
		}
	}
	req.Name = name
	pkg, err := s.describe(ctx, req, subpath)
	if err != nil {
		return nil, err
	}
	pkg.Name = spec
	return pkg, nil
}

// describe documents the module at subpath of the package req.Name: the
// project's view of the package is resolved once, then the installed copy
// or the registry's release is read.
func (s *Source) describe(ctx context.Context, req Request, subpath string) (*model.Package, error) {
	cfg, err := s.Config(req.ProjectPath)
	if err != nil {
		return nil, err
	}
	view := resolveProject(req.ProjectPath, req.Name)
	// A copy installed in the project answers before any network.
	if view.dir != "" {
		pkg, err := describeInstalled(view, subpath)
		if errors.Is(err, ErrNotFound) {
			return nil, err
		}
		if err == nil && (req.Version == "" || req.Version == pkg.Version) {
			return pkg, nil
		}
	}
	if s.Offline {
		return nil, fmt.Errorf("npm package %q is not installed under the project and pkgdocs is offline: %w", req.Name, ErrNotFound)
	}
	rel, err := s.fetchRelease(ctx, cfg, req.Name, wantedVersion(req.Version, view))
	if err != nil {
		return nil, err
	}
	return s.describeRelease(ctx, cfg, rel, subpath)
}

// versionChoice is the version a request asks the registry for and why
// (ResolvedFrom): explicit, a dist-tag, a semver range, or the project's.
type versionChoice struct {
	version, how string
}

// wantedVersion chooses the version to ask the registry for: the one
// asked, else the project's, else the latest dist-tag.
func wantedVersion(asked string, view *projectView) versionChoice {
	switch {
	case asked == "" && view.version != "":
		return versionChoice{view.version, view.from}
	case asked == "":
		return versionChoice{"latest", "dist-tag latest"}
	}
	if _, err := semver.StrictNewVersion(asked); err == nil {
		return versionChoice{asked, "explicit"}
	}
	if _, err := semver.NewConstraint(asked); err == nil && !isTag(asked) {
		return versionChoice{asked, "semver range " + asked}
	}
	return versionChoice{asked, "dist-tag " + asked}
}

// release is what the registry serves for one version of a package,
// fetched once per request: its version document and tarball, which the
// readers (README and declarations, JSDoc) receive.
type release struct {
	name, reg, how string
	vd             *versionDoc
	body           []byte
}

// fetchRelease resolves the version choice against the registry and
// downloads the tarball.
func (s *Source) fetchRelease(ctx context.Context, cfg *Config, name string, choice versionChoice) (*release, error) {
	reg := cfg.Registry(name)
	var vd *versionDoc
	var err error
	if strings.HasPrefix(choice.how, "semver range") {
		vd, err = s.resolveRange(ctx, cfg, reg, name, choice.version)
	} else {
		vd, err = s.versionDoc(ctx, cfg, reg, name, choice.version)
	}
	if err != nil {
		return nil, err
	}
	body, err := s.tarballBody(ctx, cfg, vd)
	if err != nil {
		return nil, err
	}
	return &release{name: name, reg: reg, how: choice.how, vd: vd, body: body}, nil
}

// describeRelease documents the module at subpath of a release: its own
// declarations, else those of its @types package, followed into the
// packages they lead to; and the JSDoc of plain JavaScript.
func (s *Source) describeRelease(ctx context.Context, cfg *Config, rel *release, subpath string) (*model.Package, error) {
	vd, name := rel.vd, rel.name
	tree, err := unpack(vd, rel.body, wanted, progress.FromContext(ctx))
	if err != nil {
		return nil, err
	}
	pkg, types, err := extractSubpath(tree, vd.Description, subpath)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", name, vd.Version, err)
	}
	// The package's own declarations win over @types, even when they
	// declare nothing pkgdocs can list.
	own := types != nil
	if !own && !strings.HasPrefix(name, "@types/") {
		types = s.typesFallback(ctx, cfg, name, vd.Version, subpath, pkg)
	}
	if types != nil {
		followTypes(types, pkg, func(w wantedDep) (*mount, error) { return s.mountTypes(ctx, cfg, w) })
	}
	if !own && subpath == "" {
		// Plain JavaScript: its JSDoc documents what @types declares
		// without comments, or is the whole API.
		if js, err := unpack(vd, rel.body, wantedJS, progress.FromContext(ctx)); err == nil {
			addJSAPI(pkg, js, name+"@"+vd.Version)
		}
	}
	if vd.Deprecated != "" {
		pkg.Deprecated = string(vd.Deprecated) // the registry's word wins over the README's
	}
	pkg.Name, pkg.Version, pkg.Ecosystem = name, vd.Version, model.NPM
	pkg.Registry = hostOf(rel.reg)
	pkg.SourceURL = vd.Dist.Tarball
	pkg.ResolvedFrom = rel.how
	pkg.Install = fmt.Sprintf("```sh\nnpm install %s@%s\n```", name, vd.Version)
	return pkg, nil
}

var tagRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9._-]*$`)

func isTag(v string) bool {
	return tagRE.MatchString(v) && v != "x" && v != "X"
}

func hostOf(u string) string {
	if pu, err := url.Parse(u); err == nil {
		return pu.Host
	}
	return u
}

func (s *Source) get(ctx context.Context, cfg *Config, u string, limit int64) ([]byte, error) {
	return s.getDigest(ctx, cfg, u, limit, "")
}

// getDigest is get for an artefact whose checksum the caller verifies.
func (s *Source) getDigest(ctx context.Context, cfg *Config, u string, limit int64, digest string) ([]byte, error) {
	hdr := http.Header{"Accept": {"application/json"}}
	if auth, _ := cfg.Auth(u); auth != "" {
		hdr.Set("Authorization", auth)
	}
	resp, err := s.Client.Do(ctx, fetch.Request{URL: u, Header: hdr, MaxBytes: limit, Digest: digest})
	if err != nil {
		if errors.Is(err, fetch.ErrUnauthorized) {
			return nil, authError(cfg, u, err)
		}
		return nil, err
	}
	return resp.Body, nil
}

// authError names the .npmrc key to set, never a token.
func authError(cfg *Config, u string, err error) error {
	_, key := cfg.Auth(u)
	if key != "" {
		return fmt.Errorf("%w: the credentials in .npmrc key %s were refused by %s", err, key, hostOf(u))
	}
	nerf := NerfDart(cfg.registryOf(u))
	return fmt.Errorf("%w: %s needs credentials; set %s:_authToken in .npmrc (for example %s:_authToken=${NPM_TOKEN})", err, hostOf(u), nerf, nerf)
}

func (s *Source) versionDoc(ctx context.Context, cfg *Config, reg, name, version string) (*versionDoc, error) {
	body, err := s.get(ctx, cfg, reg+escapeName(name)+"/"+url.PathEscape(version), 8<<20)
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, s.notFound(ctx, cfg, reg, name, version)
		}
		return nil, err
	}
	var vd versionDoc
	if err := json.Unmarshal(body, &vd); err != nil || vd.Version == "" || vd.Dist.Tarball == "" {
		return nil, fmt.Errorf("npm registry %s: malformed version document for %s@%s", hostOf(reg), name, version)
	}
	return &vd, nil
}

// notFound explains a 404: unknown package, or unknown version with the
// nearest ones.
func (s *Source) notFound(ctx context.Context, cfg *Config, reg, name, version string) error {
	p, err := s.packument(ctx, cfg, reg, name)
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return fmt.Errorf("npm package %q not found in %s (check the spelling; scoped packages look like @scope/name): %w", name, reg, ErrNotFound)
		}
		return err
	}
	return fmt.Errorf("%s has no version or dist-tag %q; nearest: %s (dist-tags: %s): %w", name, version, strings.Join(nearest(p, version), ", "), tags(p), ErrVersionNotFound)
}

func (s *Source) packument(ctx context.Context, cfg *Config, reg, name string) (*packument, error) {
	body, err := s.get(ctx, cfg, reg+escapeName(name), 64<<20)
	if err != nil {
		return nil, err
	}
	var p packument
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("npm registry %s: malformed packument for %s: %w", hostOf(reg), name, err)
	}
	return &p, nil
}

func (s *Source) resolveRange(ctx context.Context, cfg *Config, reg, name, rng string) (*versionDoc, error) {
	c, err := semver.NewConstraint(rng)
	if err != nil {
		return nil, fmt.Errorf("invalid version range %q: %w", rng, err)
	}
	p, err := s.packument(ctx, cfg, reg, name)
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			return nil, fmt.Errorf("npm package %q not found in %s: %w", name, reg, ErrNotFound)
		}
		return nil, err
	}
	var best *semver.Version
	for v := range p.Versions {
		sv, err := semver.StrictNewVersion(v)
		if err != nil || !c.Check(sv) {
			continue
		}
		if best == nil || sv.GreaterThan(best) {
			best = sv
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no version of %s satisfies %q; nearest: %s: %w", name, rng, strings.Join(nearest(p, ""), ", "), ErrVersionNotFound)
	}
	vd := p.Versions[best.Original()]
	return &vd, nil
}

func tags(p *packument) string {
	var out []string
	for t, v := range p.DistTags {
		out = append(out, t+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// nearest returns up to three versions around want (the newest three when
// want is not a version).
func nearest(p *packument, want string) []string {
	var vs []*semver.Version
	for v := range p.Versions {
		if sv, err := semver.StrictNewVersion(v); err == nil {
			vs = append(vs, sv)
		}
	}
	sort.Sort(semver.Collection(vs))
	i := len(vs)
	if w, err := semver.NewVersion(want); err == nil {
		i = sort.Search(len(vs), func(i int) bool { return !vs[i].LessThan(w) })
	}
	var out []string
	if i < len(vs) {
		out = append(out, vs[i].Original())
	}
	for j := i - 1; j >= 0 && len(out) < 3; j-- {
		out = append(out, vs[j].Original())
	}
	return out
}

// tarball downloads and unpacks a version's tarball. Credentials are sent
// only when the tarball URL itself matches an .npmrc credential key, so a
// tarball on another host never receives the registry's token.
func (s *Source) tarball(ctx context.Context, cfg *Config, vd *versionDoc) (*archive.Tree, error) {
	body, err := s.tarballBody(ctx, cfg, vd)
	if err != nil {
		return nil, err
	}
	return unpack(vd, body, wanted, progress.FromContext(ctx))
}

// tarballBody downloads a version's tarball and checks its integrity.
func (s *Source) tarballBody(ctx context.Context, cfg *Config, vd *versionDoc) ([]byte, error) {
	body, err := s.getDigest(ctx, cfg, vd.Dist.Tarball, 50<<20, firstSet(vd.Dist.Integrity, vd.Dist.Shasum))
	if err != nil {
		return nil, fmt.Errorf("downloading %s@%s: %w", vd.Name, vd.Version, err)
	}
	if err := verify(body, vd.Dist.Integrity, vd.Dist.Shasum); err != nil {
		return nil, fmt.Errorf("%s@%s: %w", vd.Name, vd.Version, err)
	}
	return body, nil
}

// unpack reads the files keep selects from a tarball, telling rep of each.
func unpack(vd *versionDoc, body []byte, keep func(string) bool, rep *progress.Reporter) (*archive.Tree, error) {
	tree, err := archive.ReadTarGz(body, archive.Options{StripFirst: true, Keep: keep, Limits: archive.Limits{MaxFileSize: 2 << 20}, Progress: rep})
	if err != nil {
		return nil, fmt.Errorf("%s@%s tarball: %w", vd.Name, vd.Version, err)
	}
	return tree, nil
}

// verify checks SRI sha512 integrity, falling back to the sha1 shasum.
func verify(body []byte, integrity, shasum string) error {
	for _, sri := range strings.Fields(integrity) {
		algo, want, ok := strings.Cut(sri, "-")
		if !ok || algo != "sha512" {
			continue
		}
		sum := sha512.Sum512(body)
		if base64.StdEncoding.EncodeToString(sum[:]) != want {
			return ErrIntegrity
		}
		return nil
	}
	if shasum != "" {
		sum := sha1.Sum(body)
		if hex.EncodeToString(sum[:]) != strings.ToLower(shasum) {
			return ErrIntegrity
		}
	}
	return nil
}

// wanted selects the tarball files pkgdocs reads.
func wanted(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case name == "package.json":
		return true
	case !strings.Contains(name, "/") && strings.HasPrefix(lower, "readme"):
		return true
	case strings.HasSuffix(lower, ".d.ts") || strings.HasSuffix(lower, ".d.cts") || strings.HasSuffix(lower, ".d.mts"):
		return !strings.HasPrefix(name, "node_modules/")
	case strings.HasPrefix(lower, "docs/") || strings.HasPrefix(lower, "doc/"):
		return strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")
	case strings.HasPrefix(lower, "examples/") || strings.HasPrefix(lower, "example/"):
		return true
	}
	return false
}

// wantedJS selects package.json and the JavaScript sources, read for their
// JSDoc (see readJSAPI) only when a package ships no declarations: most of
// a TypeScript package's tarball is compiled JavaScript it has no use for.
func wantedJS(name string) bool {
	lower := strings.ToLower(name)
	if name == "package.json" {
		return true
	}
	return (strings.HasSuffix(lower, ".js") || strings.HasSuffix(lower, ".cjs") || strings.HasSuffix(lower, ".mjs")) &&
		!strings.HasPrefix(name, "node_modules/") && !strings.Contains(name, "/node_modules/") && !strings.HasSuffix(lower, ".min.js")
}
