package gosrc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Latest returns the version `go list -m mod@latest` picks: from @v/list,
// the highest release, else the highest prerelease; +incompatible versions
// only when the highest compatible version has no go.mod file (a module
// that never adopted modules); versions retracted by the go.mod of the
// latest version (computed ignoring retractions) skipped, unless every
// version is retracted. A proxy without a list answers from @latest.
func (p *Proxy) Latest(ctx context.Context, mod string) (version, how string, err error) {
	vs, listErr := p.List(ctx, mod)
	if len(vs) > 0 {
		hasGoMod := func(v string) bool {
			data, err := p.Mod(ctx, mod, v)
			return err == nil && !isLegacyGoMod(mod, data)
		}
		cand := selectLatest(vs, nil, hasGoMod)
		var retracted []modfile.VersionInterval
		if data, err := p.Mod(ctx, mod, cand); err == nil {
			retracted = retractions(data)
		}
		if v := selectLatest(vs, retracted, hasGoMod); v != "" {
			how := "latest in @v/list"
			if v != cand {
				how += fmt.Sprintf(" (%s is retracted)", cand)
			}
			return v, how, nil
		}
		return cand, "latest in @v/list (every version is retracted)", nil
	}
	body, _, err := p.get(ctx, mod, "@latest", 1<<16)
	if err == nil {
		var in info
		if json.Unmarshal(body, &in) == nil && semver.IsValid(in.Version) {
			return in.Version, "@latest", nil
		}
	}
	if listErr != nil {
		return "", "", listErr
	}
	if err != nil {
		return "", "", err
	}
	return "", "", fmt.Errorf("module %s: %w: no versions", mod, ErrNotFound)
}

// Mod returns the go.mod file of mod@version.
func (p *Proxy) Mod(ctx context.Context, mod, version string) ([]byte, error) {
	ev, err := module.EscapeVersion(version)
	if err != nil {
		return nil, fmt.Errorf("invalid version %q: %w", version, err)
	}
	data, _, err := p.get(ctx, mod, "@v/"+ev+".mod", 1<<20)
	return data, err
}

// isLegacyGoMod reports a go.mod the proxy synthesized for a version
// without one: exactly "module <path>\n".
func isLegacyGoMod(mod string, data []byte) bool {
	return bytes.Equal(data, []byte("module "+modfile.AutoQuote(mod)+"\n"))
}

// retractions reads the retract directives of a go.mod file.
func retractions(data []byte) []modfile.VersionInterval {
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil
	}
	var out []modfile.VersionInterval
	for _, r := range f.Retract {
		out = append(out, r.VersionInterval)
	}
	return out
}

// selectLatest applies cmd/go's "latest" query to versions sorted by
// semver: skip retracted versions; keep +incompatible versions only when
// the last compatible version below them has no go.mod (hasGoMod); then
// the highest release, else the highest prerelease.
func selectLatest(vs []string, retracted []modfile.VersionInterval, hasGoMod func(string) bool) string {
	var release, pre, lastCompatible string
	needIncompatible := false
	for _, v := range vs {
		if isRetracted(v, retracted) {
			continue
		}
		if !needIncompatible {
			if !strings.HasSuffix(v, "+incompatible") {
				lastCompatible = v
			} else if lastCompatible != "" {
				if hasGoMod(lastCompatible) {
					break // the module is a module: higher majors need /vN
				}
				needIncompatible = true
			}
		}
		if semver.Prerelease(v) != "" {
			pre = v
		} else {
			release = v
		}
	}
	if release != "" {
		return release
	}
	return pre
}

func isRetracted(v string, retracted []modfile.VersionInterval) bool {
	for _, r := range retracted {
		if semver.Compare(v, r.Low) >= 0 && semver.Compare(v, r.High) <= 0 {
			return true
		}
	}
	return false
}
