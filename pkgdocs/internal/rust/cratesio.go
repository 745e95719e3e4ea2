package rust

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/search"
)

// crateDoc is the part of crates.io's GET /api/v1/crates/{name} answer
// pkgdocs uses.
type crateDoc struct {
	Crate struct {
		Name             string `json:"name"`
		Description      string `json:"description"`
		Documentation    string `json:"documentation"`
		Repository       string `json:"repository"`
		Homepage         string `json:"homepage"`
		DefaultVersion   string `json:"default_version"`
		MaxStableVersion string `json:"max_stable_version"`
		MaxVersion       string `json:"max_version"`
	} `json:"crate"`
	Versions []versionDoc `json:"versions"`
}

// versionDoc is one release (GET /api/v1/crates/{name}/{version} wraps it
// in {"version": ...}).
type versionDoc struct {
	Num         string              `json:"num"`
	Yanked      bool                `json:"yanked"`
	Checksum    string              `json:"checksum"`
	License     string              `json:"license"`
	RustVersion string              `json:"rust_version"`
	Features    map[string][]string `json:"features"`
}

func (s *Source) getJSON(ctx context.Context, u string, v any) error {
	resp, err := s.Client.Do(ctx, fetch.Request{URL: u, Header: http.Header{"Accept": {"application/json"}}, MaxBytes: 16 << 20})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return fmt.Errorf("%s: malformed JSON from %s: %w", hostOf(u), u, err)
	}
	return nil
}

func (s *Source) crateURL(name string, parts ...string) string {
	u := strings.TrimSuffix(s.APIURL, "/") + "/api/v1/crates/" + url.PathEscape(name)
	for _, p := range parts {
		u += "/" + url.PathEscape(p)
	}
	return u
}

// crate fetches a crate's metadata; an unknown crate becomes an error
// with suggestions from the crates.io search.
func (s *Source) crate(ctx context.Context, name string) (*crateDoc, error) {
	var c crateDoc
	err := s.getJSON(ctx, s.crateURL(name), &c)
	if errors.Is(err, fetch.ErrNotFound) {
		msg := fmt.Sprintf("crate %q not found on %s", name, hostOf(s.APIURL))
		if sugg := s.suggest(ctx, name); len(sugg) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sugg, ", "))
		}
		return nil, fmt.Errorf("%s: %w", msg, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if c.Crate.Name == "" {
		return nil, fmt.Errorf("%s: crate document for %s has no name", hostOf(s.APIURL), name)
	}
	return &c, nil
}

// suggest asks the crates.io search for similar names; failures are quiet.
func (s *Source) suggest(ctx context.Context, name string) []string {
	var res struct {
		Crates []struct {
			Name string `json:"name"`
		} `json:"crates"`
	}
	u := strings.TrimSuffix(s.APIURL, "/") + "/api/v1/crates?per_page=10&q=" + url.QueryEscape(name)
	if s.getJSON(ctx, u, &res) != nil {
		return nil
	}
	var names []string
	for _, c := range res.Crates {
		names = append(names, c.Name)
	}
	return search.Suggest(names, name, 3)
}

// versions returns the crate's releases, from the crate document or, when
// crates.io left them out, from /versions.
func (s *Source) versions(ctx context.Context, c *crateDoc) ([]versionDoc, error) {
	if len(c.Versions) > 0 {
		return c.Versions, nil
	}
	var res struct {
		Versions []versionDoc `json:"versions"`
	}
	if err := s.getJSON(ctx, s.crateURL(c.Crate.Name, "versions"), &res); err != nil {
		return nil, err
	}
	return res.Versions, nil
}

// release returns the release version of crate c, fetching it on its own
// when the crate document does not list it.
func (s *Source) release(ctx context.Context, c *crateDoc, version string) (*versionDoc, error) {
	for i := range c.Versions {
		if c.Versions[i].Num == version {
			return &c.Versions[i], nil
		}
	}
	var res struct {
		Version versionDoc `json:"version"`
	}
	err := s.getJSON(ctx, s.crateURL(c.Crate.Name, version), &res)
	if errors.Is(err, fetch.ErrNotFound) || err == nil && res.Version.Num == "" {
		return nil, s.versionNotFound(ctx, c, version)
	}
	if err != nil {
		return nil, err
	}
	return &res.Version, nil
}

func (s *Source) versionNotFound(ctx context.Context, c *crateDoc, want string) error {
	vs, _ := s.versions(ctx, c)
	return fmt.Errorf("crate %s has no version %s; nearest: %s: %w", c.Crate.Name, want, strings.Join(nearest(vs, want), ", "), ErrVersionNotFound)
}

// latest picks the version crates.io shows by default.
func latest(c *crateDoc) string {
	for _, v := range []string{c.Crate.DefaultVersion, c.Crate.MaxStableVersion, c.Crate.MaxVersion} {
		if v != "" {
			return v
		}
	}
	return ""
}

// matchRequirement returns the highest unyanked version matching a Cargo
// version requirement (a bare "1.2" means "^1.2", as in Cargo.toml).
func matchRequirement(vs []versionDoc, req string) (string, error) {
	r := strings.TrimSpace(req)
	if r != "" && r[0] >= '0' && r[0] <= '9' {
		r = "^" + r
	}
	c, err := semver.NewConstraint(r)
	if err != nil {
		return "", fmt.Errorf("invalid version requirement %q: %w", req, err)
	}
	var best *semver.Version
	for _, v := range vs {
		sv, err := semver.StrictNewVersion(v.Num)
		if err != nil || v.Yanked || !c.Check(sv) {
			continue
		}
		if best == nil || sv.GreaterThan(best) {
			best = sv
		}
	}
	if best == nil {
		return "", nil
	}
	return best.Original(), nil
}

// nearest returns up to three versions around want.
func nearest(vs []versionDoc, want string) []string {
	var svs []*semver.Version
	for _, v := range vs {
		if sv, err := semver.StrictNewVersion(v.Num); err == nil && !v.Yanked {
			svs = append(svs, sv)
		}
	}
	sort.Sort(semver.Collection(svs))
	i := len(svs)
	if w, err := semver.NewVersion(want); err == nil {
		i = sort.Search(len(svs), func(i int) bool { return !svs[i].LessThan(w) })
	}
	var out []string
	if i < len(svs) {
		out = append(out, svs[i].Original())
	}
	for j := i - 1; j >= 0 && len(out) < 3; j-- {
		out = append(out, svs[j].Original())
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

// isExact reports whether v is a full semantic version (not a requirement).
func isExact(v string) bool {
	_, err := semver.StrictNewVersion(v)
	return err == nil
}

// IsExactVersion reports whether v names one release (a full semantic
// version), as opposed to a requirement or "latest".
func IsExactVersion(v string) bool { return isExact(v) }
