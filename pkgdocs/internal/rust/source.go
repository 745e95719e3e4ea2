// Package rust documents Rust crates from crates.io (crate and release
// metadata), docs.rs rustdoc JSON (the public API with signatures and
// docs) and the crate source archive (README, crate docs, examples, and a
// source scan of the API when docs.rs has no JSON). It never runs cargo or
// rustdoc.
package rust

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/lockfile"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
	"github.com/gomcp/sdk/pkgdocs/internal/projectdir"
	"github.com/gomcp/sdk/pkgdocs/internal/readme"
)

// Sentinel errors.
var (
	ErrNotFound        = errors.New("not found")
	ErrVersionNotFound = errors.New("version not found")
	ErrInvalidName     = errors.New("invalid crate name")
	ErrChecksum        = errors.New("crate archive checksum mismatch")
)

var crateNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// Source documents Rust crates. The URLs come from configuration, never
// from tool arguments.
type Source struct {
	Client      *fetch.Client
	APIURL      string // crates.io API host; default https://crates.io
	DownloadURL string // crate archives; default https://static.crates.io
	DocsURL     string // docs.rs; default https://docs.rs; "off" skips rustdoc JSON
	CargoHome   string // Cargo's home (registry/src holds unpacked crates); default $CARGO_HOME or ~/.cargo
}

// Request names the crate to document.
type Request struct {
	Name        string
	Version     string // exact version or Cargo requirement; "" for Cargo.lock, else latest
	ProjectPath string // directory at or below the project's Cargo.lock
}

func (s *Source) defaults() {
	if s.APIURL == "" {
		s.APIURL = "https://crates.io"
	}
	if s.DownloadURL == "" {
		s.DownloadURL = "https://static.crates.io"
	}
	if s.DocsURL == "" {
		s.DocsURL = "https://docs.rs"
	}
}

// Describe documents req.Name.
func (s *Source) Describe(ctx context.Context, req Request) (*model.Package, error) {
	s.defaults()
	name := strings.TrimSpace(req.Name)
	if !crateNameRE.MatchString(name) {
		return nil, fmt.Errorf("%w: %q (crate names are ASCII letters, digits, '-' and '_')", ErrInvalidName, req.Name)
	}
	pkg, why := s.describeLocal(ctx, name, req)
	if pkg != nil {
		return pkg, nil
	}
	c, err := s.crate(ctx, name)
	if err != nil {
		if why != "" {
			return nil, fmt.Errorf("no usable local copy (%s); crates.io: %w", why, err)
		}
		return nil, err
	}
	name = c.Crate.Name
	version, how, err := s.resolve(ctx, c, req)
	if err != nil {
		return nil, err
	}
	rel, err := s.release(ctx, c, version)
	if err != nil {
		return nil, err
	}
	archiveURL := strings.TrimSuffix(s.DownloadURL, "/") + "/crates/" + url.PathEscape(name) + "/" + url.PathEscape(name+"-"+version+".crate")
	tree, err := s.crateArchive(ctx, archiveURL, rel.Checksum)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", name, version, err)
	}
	pkg = &model.Package{
		Name: name, Version: version, Ecosystem: model.Rust, Registry: hostOf(s.APIURL),
		SourceURL: archiveURL, ResolvedFrom: how, Synopsis: strings.TrimSpace(c.Crate.Description),
		Install: fmt.Sprintf("```sh\ncargo add %s@%s\n```", name, version),
	}
	s.document(ctx, pkg, tree, nil)
	pkg.Notes = append(pkg.Notes, releaseNotes(rel)...)
	if rel.Yanked {
		pkg.Deprecated = fmt.Sprintf("%s %s is yanked on crates.io: new projects cannot depend on it; use another version.", pkg.Name, rel.Num)
	}
	if links := projectLinks(c); links != "" {
		pkg.Sections = append(pkg.Sections, model.Section{Path: []string{"Project links"}, Markdown: "## Project links\n\n" + links, Priority: model.PriorityRest})
	}
	return pkg, nil
}

// document reads a crate tree (an archive, or a local copy) into pkg:
// README, crate docs and API, examples. extern, if set, gives the API of
// other crates the scan finds re-exported (see Scanner.Extern).
func (s *Source) document(ctx context.Context, pkg *model.Package, tree *archive.Tree, extern func(string) []model.Symbol) {
	man := readManifest(tree)
	var origin []string
	readmeText := ""
	if file, data, ok := findReadme(tree, man.readme); ok {
		readmeText = string(data)
		pkg.Sections = append(pkg.Sections, readme.Sections(data, file)...)
		origin = append(origin, file)
	} else {
		pkg.Notes = append(pkg.Notes, "The crate archive has no README.")
	}
	crateDocs := s.api(ctx, pkg, tree, man, &origin, extern)
	if crateDocs = StripHiddenLines(crateDocs); crateDocs != "" && !sameText(crateDocs, readmeText) {
		for _, sec := range readme.Sections([]byte(crateDocs), "crate docs") {
			if len(sec.Path) == 0 && readmeText != "" { // give the crate docs' opening a heading of its own
				sec.Path = []string{"Crate documentation"}
				sec.Markdown = "## Crate documentation\n\n" + sec.Markdown
				sec.Priority = model.PriorityUsage
			}
			pkg.Sections = append(pkg.Sections, sec)
		}
	}
	pkg.Examples = examples(tree)
	if len(pkg.Examples) > 0 {
		origin = append(origin, "examples/")
	}
	pkg.Origin = strings.Join(origin, " + ")
}

// resolve chooses the version: explicit or requirement, Cargo.lock, latest.
func (s *Source) resolve(ctx context.Context, c *crateDoc, req Request) (version, how string, err error) {
	v := strings.TrimSpace(req.Version)
	switch {
	case v != "" && v != "latest" && isExact(v):
		return v, "explicit", nil
	case v != "" && v != "latest":
		vs, err := s.versions(ctx, c)
		if err != nil {
			return "", "", err
		}
		m, err := matchRequirement(vs, v)
		if err != nil {
			return "", "", err
		}
		if m == "" {
			return "", "", fmt.Errorf("no release of %s matches %q; nearest: %s: %w", c.Crate.Name, v, strings.Join(nearest(vs, ""), ", "), ErrVersionNotFound)
		}
		return m, "requirement " + v, nil
	}
	if v == "" && req.ProjectPath != "" {
		if lock := nearestFile(req.ProjectPath, "Cargo.lock"); lock != "" {
			if data, err := os.ReadFile(lock); err == nil {
				for _, n := range []string{c.Crate.Name, strings.ReplaceAll(c.Crate.Name, "-", "_"), strings.ReplaceAll(c.Crate.Name, "_", "-")} {
					if lv, ok := lockfile.CargoVersion(data, n); ok {
						return lv, "Cargo.lock", nil
					}
				}
			}
		}
	}
	if l := latest(c); l != "" {
		return l, "latest (crates.io default version)", nil
	}
	return "", "", fmt.Errorf("crate %s has no releases: %w", c.Crate.Name, ErrVersionNotFound)
}

// crateArchive downloads and unpacks a .crate, checking its sha256.
func (s *Source) crateArchive(ctx context.Context, u, checksum string) (*archive.Tree, error) {
	digest := ""
	if checksum != "" {
		digest = "sha256:" + strings.ToLower(checksum)
	}
	resp, err := s.Client.Do(ctx, fetch.Request{URL: u, MaxBytes: 64 << 20, Digest: digest})
	if err != nil {
		return nil, fmt.Errorf("downloading the crate archive: %w", err)
	}
	if checksum != "" {
		sum := sha256.Sum256(resp.Body)
		if hex.EncodeToString(sum[:]) != strings.ToLower(checksum) {
			return nil, ErrChecksum
		}
	}
	tree, err := archive.ReadTarGz(resp.Body, archive.Options{StripFirst: true, Keep: wanted, Limits: archive.Limits{MaxFileSize: 1 << 20}, Progress: progress.FromContext(ctx)})
	if err != nil {
		return nil, fmt.Errorf("crate archive: %w", err)
	}
	return tree, nil
}

func wanted(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case name == "Cargo.toml", !strings.Contains(name, "/") && strings.HasPrefix(lower, "readme"):
		return true
	case strings.HasSuffix(name, ".rs"):
		return strings.HasPrefix(name, "src/") || strings.HasPrefix(name, "examples/")
	case strings.HasSuffix(lower, ".md"):
		return true // a readme = "docs/README.md" key
	}
	return false
}

// api fills pkg.Symbols from docs.rs rustdoc JSON, or from a source scan
// when there is none, and returns the crate-level docs.
func (s *Source) api(ctx context.Context, pkg *model.Package, tree *archive.Tree, man manifest, origin *[]string, extern func(string) []model.Symbol) string {
	if s.DocsURL != "off" {
		u := strings.TrimSuffix(s.DocsURL, "/") + "/crate/" + url.PathEscape(pkg.Name) + "/" + url.PathEscape(pkg.Version) + "/json.gz"
		resp, err := s.Client.Do(ctx, fetch.Request{URL: u, MaxBytes: 64 << 20})
		var rd *Rustdoc
		if err == nil {
			rd, err = ReadRustdoc(resp.Body, 0)
		}
		switch {
		case err == nil:
			pkg.Symbols = stripSymbolDocs(rd.Symbols)
			*origin = append(*origin, fmt.Sprintf("rustdoc JSON (%s, format %d)", hostOf(s.DocsURL), rd.FormatVersion))
			if rd.Truncated {
				pkg.Notes = append(pkg.Notes, fmt.Sprintf("The API has more than %d public items; the rest are left out.", len(rd.Symbols)))
			}
			if rd.FormatVersion > MaxTestedFormatVers {
				pkg.Notes = append(pkg.Notes, fmt.Sprintf("rustdoc JSON format %d is newer than this reader was tested with (%d); some signatures may be incomplete.", rd.FormatVersion, MaxTestedFormatVers))
			}
			return rd.CrateDocs
		case errors.Is(err, fetch.ErrNotFound):
			pkg.Notes = append(pkg.Notes, "docs.rs has no rustdoc JSON for this release (it builds JSON for releases since 2025-05-23); the API below comes from a source scan.")
		case fetch.IsTransient(err):
			pkg.Partial = true
			pkg.Notes = append(pkg.Notes, "docs.rs could not be reached; the API below comes from a source scan.")
		default:
			pkg.Notes = append(pkg.Notes, "docs.rs rustdoc JSON could not be read ("+shortErr(err)+"); the API below comes from a source scan.")
		}
	}
	lib := man.lib
	if lib == "" {
		lib = "src/lib.rs"
	}
	if !tree.Has(lib) {
		pkg.Notes = append(pkg.Notes, "The crate has no library target ("+lib+"); it may be a binary-only crate.")
		return ""
	}
	res := (&Scanner{Read: tree.Get, Extern: extern}).Scan(lib)
	pkg.Symbols = stripSymbolDocs(res.Symbols)
	*origin = append(*origin, "source scan of "+lib)
	pkg.Notes = append(pkg.Notes, "Source-scanned API: items generated by macros or gated by cfg may be missing or extra.")
	return res.CrateDocs
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:157] + "…"
	}
	return s
}

func stripSymbolDocs(syms []model.Symbol) []model.Symbol {
	for i := range syms {
		syms[i].Doc = StripHiddenLines(syms[i].Doc)
	}
	return syms
}

// manifest is what pkgdocs reads from a crate's Cargo.toml.
type manifest struct {
	readme string // readme path; "-" when readme = false
	lib    string // [lib] path
}

// readManifest reads the [package] readme and [lib] path keys.
func readManifest(tree *archive.Tree) manifest {
	var m manifest
	data, ok := tree.Get("Cargo.toml")
	if !ok {
		return m
	}
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[] ")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case table == "package" && k == "readme":
			if v == "false" {
				m.readme = "-"
			} else {
				m.readme = strings.Trim(v, `"'`)
			}
		case table == "lib" && k == "path":
			m.lib = path.Clean(strings.Trim(v, `"'`))
		}
	}
	return m
}

// findReadme returns the crate's README: the manifest's readme key, else
// README.md, README, README.txt.
func findReadme(tree *archive.Tree, key string) (string, []byte, bool) {
	if key == "-" {
		return "", nil, false
	}
	candidates := []string{"README.md", "README", "README.txt", "readme.md", "Readme.md"}
	if key != "" {
		candidates = append([]string{path.Clean(key)}, candidates...)
	}
	for _, c := range candidates {
		if data, ok := tree.Get(c); ok {
			return c, data, true
		}
	}
	return "", nil, false
}

// examples returns small examples/ programs, smallest first, at most ten.
func examples(tree *archive.Tree) []model.Example {
	var out []model.Example
	for _, n := range tree.Names() {
		if !strings.HasPrefix(n, "examples/") || !strings.HasSuffix(n, ".rs") || strings.Count(n, "/") > 2 {
			continue
		}
		data, ok := tree.Get(n)
		if !ok || len(data) > 8<<10 {
			continue
		}
		doc, code := exampleDoc(string(data))
		out = append(out, model.Example{Name: n, Doc: doc, Code: code, Lang: "rust"})
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Code) < len(out[j].Code) })
	if len(out) > 10 {
		out = out[:10]
	}
	return out
}

// exampleDoc splits an example's leading //! docs from its code.
func exampleDoc(src string) (string, string) {
	var doc []string
	lines := strings.Split(src, "\n")
	i := 0
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "//!") {
			break
		}
		doc = append(doc, strings.TrimPrefix(strings.TrimPrefix(t, "//!"), " "))
	}
	return strings.TrimSpace(strings.Join(doc, "\n")), strings.TrimSpace(strings.Join(lines[i:], "\n"))
}

func releaseNotes(rel *versionDoc) []string {
	var notes []string
	if rel.Yanked {
		notes = append(notes, "This release is yanked on crates.io; prefer another version.")
	}
	if len(rel.Features) > 0 {
		var fs []string
		for f, deps := range rel.Features {
			if f == "default" {
				fs = append(fs, "default = ["+strings.Join(deps, ", ")+"]")
			} else {
				fs = append(fs, f)
			}
		}
		sort.Strings(fs)
		if len(fs) > 25 {
			fs = append(fs[:25], "…")
		}
		notes = append(notes, "Cargo features: "+strings.Join(fs, "; ")+".")
	}
	if rel.RustVersion != "" {
		notes = append(notes, "Needs Rust "+rel.RustVersion+" or newer.")
	}
	if rel.License != "" {
		notes = append(notes, "License: "+rel.License+".")
	}
	return notes
}

func projectLinks(c *crateDoc) string {
	var b strings.Builder
	for _, l := range [][2]string{{"Documentation", c.Crate.Documentation}, {"Repository", c.Crate.Repository}, {"Homepage", c.Crate.Homepage}} {
		if l[1] != "" {
			fmt.Fprintf(&b, "- %s: %s\n", l[0], l[1])
		}
	}
	return strings.TrimSpace(b.String())
}

// sameText reports whether two documents say the same thing (one includes
// the other, whitespace aside): crates often use their README as crate docs.
func sameText(a, b string) bool {
	na, nb := strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")
	if na == "" || nb == "" {
		return false
	}
	return strings.Contains(na, nb) || strings.Contains(nb, na)
}

var hiddenLineRE = regexp.MustCompile(`^\s*#(\s|$)`)

// StripHiddenLines removes rustdoc's hidden lines ("# use foo;") from Rust
// code blocks of a doc comment, as rustdoc does when rendering.
func StripHiddenLines(doc string) string {
	if !strings.Contains(doc, "```") {
		return doc
	}
	lines := strings.Split(doc, "\n")
	out := lines[:0]
	fence, rustBlock := "", false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
			info := strings.TrimSpace(strings.Trim(t, "`~"))
			rustBlock = info == "" || strings.HasPrefix(info, "rust") || strings.HasPrefix(info, "no_run") || strings.HasPrefix(info, "should_panic") || strings.HasPrefix(info, "ignore") || strings.HasPrefix(info, "compile_fail") || strings.HasPrefix(info, "edition")
			out = append(out, l)
			continue
		}
		if fence != "" && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			fence = ""
			out = append(out, l)
			continue
		}
		if fence != "" && rustBlock && hiddenLineRE.MatchString(l) && !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#!") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// nearestFile returns name in dir or its closest ancestor up to the
// repository root (never the home directory above the project or the
// filesystem root), or "".
func nearestFile(dir, name string) string { return projectdir.Nearest(dir, name) }

func hostOf(u string) string {
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		return pu.Host
	}
	return u
}
