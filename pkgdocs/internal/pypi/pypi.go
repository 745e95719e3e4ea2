// Package pypi documents Python distributions: metadata and the long
// description from PyPI's JSON API (or, for a private PEP 503/691 simple
// index, from the distribution's own METADATA), and the public API read
// from a wheel or sdist by a small Python-source scanner. It never runs
// Python or imports package code.
package pypi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

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
	ErrInvalidName     = errors.New("invalid Python package name")
	ErrChecksum        = errors.New("distribution checksum mismatch")
)

var nameRE = regexp.MustCompile(`^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$`)
var sepRE = regexp.MustCompile(`[-_.]+`)

// Normalize applies PEP 503 name normalisation.
func Normalize(name string) string {
	return strings.ToLower(sepRE.ReplaceAllString(name, "-"))
}

// Source documents Python packages.
type Source struct {
	Client   *fetch.Client
	IndexURL string // PyPI JSON API host, e.g. https://pypi.org
	// SimpleIndexURL, when set, is a PEP 503/691 simple index used instead
	// of the JSON API (pip's --index-url; credentials in its user info).
	SimpleIndexURL string
}

// Request names the distribution to document.
type Request struct {
	Name        string
	Version     string // "" for the project's lock file, else the latest release
	ProjectPath string
}

// Describe documents req.Name.
func (s *Source) Describe(ctx context.Context, req Request) (*model.Package, error) {
	name := strings.TrimSpace(req.Name)
	if !nameRE.MatchString(name) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidName, req.Name)
	}
	norm := Normalize(name)
	// A distribution installed in the project's virtual environment
	// answers before any network.
	if site, di := installedDist(req.ProjectPath, norm); di != "" {
		if pkg, err := describeInstalled(site, di); err == nil && (req.Version == "" || sameVersion(pkg.Version, req.Version)) {
			return pkg, nil
		}
	}
	version, how := strings.TrimSpace(req.Version), "explicit"
	if version == "" && req.ProjectPath != "" {
		version, how = lockedVersion(req.ProjectPath, norm)
	}
	if version == "" || version == "latest" {
		version, how = "", "latest release"
	}
	if s.SimpleIndexURL != "" {
		return s.describeSimple(ctx, name, norm, version, how)
	}
	return s.describeJSON(ctx, name, norm, version, how)
}

// jsonProject is the part of PyPI's /pypi/<name>[/<version>]/json answer
// pkgdocs uses.
type jsonProject struct {
	Info struct {
		Name                   string            `json:"name"`
		Version                string            `json:"version"`
		Summary                string            `json:"summary"`
		Description            string            `json:"description"`
		DescriptionContentType string            `json:"description_content_type"`
		ProjectURLs            map[string]string `json:"project_urls"`
		RequiresPython         string            `json:"requires_python"`
		Yanked                 bool              `json:"yanked"`
		YankedReason           string            `json:"yanked_reason"`
	} `json:"info"`
	Releases map[string]json.RawMessage `json:"releases"`
	URLs     []struct {
		Filename string `json:"filename"`
		URL      string `json:"url"`
		Digests  struct {
			SHA256 string `json:"sha256"`
		} `json:"digests"`
		Yanked bool `json:"yanked"`
	} `json:"urls"`
}

func (s *Source) describeJSON(ctx context.Context, name, norm, version, how string) (*model.Package, error) {
	base := strings.TrimSuffix(s.IndexURL, "/")
	u := base + "/pypi/" + url.PathEscape(norm) + "/json"
	if version != "" {
		u = base + "/pypi/" + url.PathEscape(norm) + "/" + url.PathEscape(version) + "/json"
	}
	resp, err := s.Client.Get(ctx, u)
	if err != nil {
		if errors.Is(err, fetch.ErrNotFound) {
			if version != "" {
				return nil, s.versionNotFound(ctx, base, norm, version)
			}
			return nil, fmt.Errorf("no Python package %q on %s: %w", name, hostOf(base), ErrNotFound)
		}
		return nil, err
	}
	var p jsonProject
	if err := json.Unmarshal(resp.Body, &p); err != nil || p.Info.Version == "" {
		return nil, fmt.Errorf("%s: malformed project JSON for %s", hostOf(base), name)
	}
	pkg := &model.Package{
		Name: p.Info.Name, Version: p.Info.Version, Ecosystem: model.Python, Registry: hostOf(base),
		SourceURL: u, ResolvedFrom: how, Synopsis: p.Info.Summary,
		Install: fmt.Sprintf("```sh\npip install '%s==%s'\n```", p.Info.Name, p.Info.Version),
	}
	if p.Info.RequiresPython != "" {
		pkg.Notes = append(pkg.Notes, "Requires Python "+p.Info.RequiresPython+".")
	}
	if p.Info.Yanked {
		pkg.Deprecated = "This release is yanked on PyPI; prefer another version."
		if r := strings.TrimSpace(p.Info.YankedReason); r != "" {
			pkg.Deprecated += " Reason: " + r
		}
	}
	pkg.Sections = descriptionSections(p.Info.Description, p.Info.DescriptionContentType, "long description")
	if len(pkg.Sections) == 0 {
		pkg.Notes = append(pkg.Notes, "The release has no long description.")
	}
	var links []string
	for k, v := range p.Info.ProjectURLs {
		links = append(links, k+", "+v)
	}
	var files []distFile
	for _, f := range p.URLs {
		files = append(files, distFile{Filename: f.Filename, URL: f.URL, SHA256: f.Digests.SHA256, Yanked: f.Yanked})
	}
	origin := "PyPI JSON"
	if err := s.addAPI(ctx, pkg, files, nil, &origin); err != nil {
		return nil, err
	}
	pkg.Origin = origin
	addLinks(pkg, links)
	return pkg, nil
}

func (s *Source) describeSimple(ctx context.Context, name, norm, version, how string) (*model.Package, error) {
	ix, err := ParseIndexURL(s.SimpleIndexURL)
	if err != nil {
		return nil, err
	}
	files, err := ix.files(ctx, s.Client, norm)
	if errors.Is(err, fetch.ErrNotFound) {
		return nil, fmt.Errorf("no Python package %q on the index %s: %w", name, ix, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	byVersion := map[string][]distFile{}
	for _, f := range files {
		if v := fileVersion(f.Filename, norm); v != "" && distScore(f.Filename) > 0 {
			byVersion[v] = append(byVersion[v], f)
		}
	}
	chosen := ""
	if version != "" {
		for v := range byVersion {
			if sameVersion(v, version) {
				chosen = v
			}
		}
		if chosen == "" {
			return nil, fmt.Errorf("%s has no release %s on the index %s; nearest: %s: %w", norm, version, ix, strings.Join(nearestVersions(byVersion, version), ", "), ErrVersionNotFound)
		}
	} else if chosen = latestVersion(byVersion); chosen == "" {
		return nil, fmt.Errorf("%s has no installable files on the index %s: %w", norm, ix, ErrVersionNotFound)
	}
	pkg := &model.Package{
		Name: name, Version: chosen, Ecosystem: model.Python, Registry: hostOf(ix.base), ResolvedFrom: how,
		Install: fmt.Sprintf("```sh\npip install --index-url %s '%s==%s'\n```", ix.base, name, chosen),
	}
	origin := "simple index"
	if err := s.addAPI(ctx, pkg, byVersion[chosen], ix, &origin); err != nil {
		return nil, err
	}
	pkg.Origin = origin
	return pkg, nil
}

// addAPI downloads the best distribution file and adds its public API (and,
// for simple indexes, its metadata). Failures to read the file are notes,
// not errors, except a checksum mismatch.
func (s *Source) addAPI(ctx context.Context, pkg *model.Package, files []distFile, ix *Index, origin *string) error {
	f, ok := pickDist(files)
	if !ok {
		pkg.Notes = append(pkg.Notes, "The release has no wheel or sdist to read signatures from.")
		return nil
	}
	req := fetch.Request{URL: f.URL, MaxBytes: 64 << 20}
	if f.SHA256 != "" {
		req.Digest = "sha256:" + strings.ToLower(f.SHA256)
	}
	if ix != nil {
		req.Header = ix.header(f.URL, "*/*")
	}
	resp, err := s.Client.Do(ctx, req)
	if err != nil {
		if fetch.IsTransient(err) {
			pkg.Partial = true
		}
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("%s could not be read (%s); no API signatures.", f.Filename, shortErr(err)))
		return nil
	}
	if f.SHA256 != "" {
		sum := sha256.Sum256(resp.Body)
		if !strings.EqualFold(hex.EncodeToString(sum[:]), f.SHA256) {
			return fmt.Errorf("%s: %w", f.Filename, ErrChecksum)
		}
	}
	tree, err := readDist(resp.Body, f.Filename, progress.FromContext(ctx))
	if err != nil {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("%s could not be unpacked (%s); no API signatures.", f.Filename, shortErr(err)))
		return nil
	}
	info := inspectDist(tree)
	pkg.Symbols = info.symbols
	pkg.SourceURL = f.URL
	*origin += fmt.Sprintf(" + %s (%d modules)", f.Filename, len(info.modules))
	if info.truncated {
		pkg.Notes = append(pkg.Notes, "The distribution is large; only its first modules were read.")
	}
	if distScore(f.Filename) == 1 {
		pkg.Notes = append(pkg.Notes, "API read from the sdist (no wheel): generated or compiled modules are missing.")
	}
	if ix != nil && info.hasMeta {
		applyMetadata(pkg, info.meta)
	}
	return nil
}

// applyMetadata fills what the JSON API would have: summary, description,
// Python requirement, links.
func applyMetadata(pkg *model.Package, m Metadata) {
	if m.Name != "" {
		pkg.Name = m.Name
	}
	pkg.Synopsis = m.Summary
	if m.RequiresPython != "" {
		pkg.Notes = append(pkg.Notes, "Requires Python "+m.RequiresPython+".")
	}
	pkg.Sections = descriptionSections(m.Description, m.DescriptionContentType, "METADATA description")
	links := m.ProjectURLs
	if m.HomePage != "" {
		links = append(links, "Homepage, "+m.HomePage)
	}
	addLinks(pkg, links)
}

// descriptionSections splits a markdown long description into sections;
// reStructuredText and plain text are kept verbatim in one fence.
func descriptionSections(desc, contentType, file string) []model.Section {
	desc = strings.TrimSpace(desc)
	switch ct := strings.ToLower(contentType); {
	case desc == "" || desc == "UNKNOWN":
		return nil
	case strings.Contains(ct, "markdown"):
		return readme.Sections([]byte(desc), file)
	}
	return []model.Section{{Markdown: "```rst\n" + strings.ReplaceAll(desc, "```", "ʼʼʼ") + "\n```", Priority: model.PriorityOverview, File: file}}
}

// addLinks adds a "Project links" section from "Label, URL" entries.
func addLinks(pkg *model.Package, links []string) {
	if len(links) == 0 {
		return
	}
	var lines []string
	for _, l := range links {
		label, u, ok := strings.Cut(l, ",")
		if !ok {
			label, u = "Link", l
		}
		lines = append(lines, fmt.Sprintf("- %s: %s", strings.TrimSpace(label), strings.TrimSpace(u)))
	}
	sort.Strings(lines)
	pkg.Sections = append(pkg.Sections, model.Section{Path: []string{"Project links"}, Markdown: "## Project links\n\n" + strings.Join(lines, "\n"), Priority: model.PriorityRest})
}

func (s *Source) versionNotFound(ctx context.Context, base, norm, version string) error {
	resp, err := s.Client.Get(ctx, base+"/pypi/"+url.PathEscape(norm)+"/json")
	if err != nil {
		return fmt.Errorf("no Python package %q: %w", norm, ErrNotFound)
	}
	var p jsonProject
	_ = json.Unmarshal(resp.Body, &p)
	byVersion := map[string][]distFile{}
	for v := range p.Releases {
		byVersion[v] = nil
	}
	return fmt.Errorf("%s has no release %s; latest is %s, nearest: %s: %w", norm, version, p.Info.Version, strings.Join(nearestVersions(byVersion, version), ", "), ErrVersionNotFound)
}

// latestVersion returns the highest final release with an unyanked file,
// else the highest version.
func latestVersion(byVersion map[string][]distFile) string {
	best, bestAny := "", ""
	var bv, bav pyVersion
	for v, files := range byVersion {
		pv, ok := parseVersion(v)
		if !ok {
			continue
		}
		if bestAny == "" || compareVersions(pv, bav) > 0 {
			bestAny, bav = v, pv
		}
		if pv.prerelease() || !anyUnyanked(files) {
			continue
		}
		if best == "" || compareVersions(pv, bv) > 0 {
			best, bv = v, pv
		}
	}
	if best == "" {
		return bestAny
	}
	return best
}

func anyUnyanked(files []distFile) bool {
	for _, f := range files {
		if !f.Yanked {
			return true
		}
	}
	return len(files) == 0
}

// nearestVersions returns up to three versions around want.
func nearestVersions(byVersion map[string][]distFile, want string) []string {
	type pv struct {
		s string
		v pyVersion
	}
	var vs []pv
	for s := range byVersion {
		if v, ok := parseVersion(s); ok {
			vs = append(vs, pv{s, v})
		}
	}
	sort.Slice(vs, func(i, j int) bool { return compareVersions(vs[i].v, vs[j].v) < 0 })
	i := len(vs)
	if w, ok := parseVersion(want); ok {
		i = sort.Search(len(vs), func(i int) bool { return compareVersions(vs[i].v, w) >= 0 })
	}
	var out []string
	if i < len(vs) {
		out = append(out, vs[i].s)
	}
	for j := i - 1; j >= 0 && len(out) < 3; j-- {
		out = append(out, vs[j].s)
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

// lockedVersion reads name's pinned version from the nearest project lock
// file: uv.lock, poetry.lock, pylock.toml, Pipfile.lock, requirements.txt,
// looking no higher than the repository root and never in the home
// directory above the project or the filesystem root.
func lockedVersion(project, norm string) (string, string) {
	readers := []struct {
		file string
		read func([]byte) (string, bool)
	}{
		{"uv.lock", func(b []byte) (string, bool) { return lockfile.PythonVersion(b, norm, Normalize) }},
		{"poetry.lock", func(b []byte) (string, bool) { return lockfile.PythonVersion(b, norm, Normalize) }},
		{"pylock.toml", func(b []byte) (string, bool) { return lockfile.PythonVersion(b, norm, Normalize) }},
		{"Pipfile.lock", func(b []byte) (string, bool) { return lockfile.PipfileVersion(b, norm, Normalize) }},
		{"requirements.txt", func(b []byte) (string, bool) { return lockfile.RequirementsVersion(b, norm, Normalize) }},
	}
	for _, dir := range projectdir.Ancestors(project) {
		found := false
		for _, r := range readers {
			data, err := os.ReadFile(filepath.Join(dir, r.file))
			if err != nil {
				continue
			}
			found = true
			if v, ok := r.read(data); ok {
				return v, r.file
			}
		}
		if found {
			return "", ""
		}
	}
	return "", ""
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:157] + "…"
	}
	return s
}

func hostOf(u string) string {
	if pu, err := url.Parse(u); err == nil && pu.Host != "" {
		return pu.Host
	}
	return u
}
