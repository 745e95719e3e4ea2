package lockfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrFormat reports a lock file pkgdocs cannot read at all.
var ErrFormat = errors.New("unreadable lock file")

// SwiftPin is one pinned dependency of a SwiftPM Package.resolved.
type SwiftPin struct {
	Identity string // lower-cased package identity, e.g. "swift-argument-parser"
	Location string // repository URL or path
	Version  string // tag version, if pinned to one
	Revision string // commit
	Branch   string // branch, if pinned to one
}

// SwiftPins reads a Package.resolved: version 1 ({"object": {"pins":
// [{"package", "repositoryURL", "state"}]}}) and versions 2 and 3
// ({"pins": [{"identity", "location", "state"}]}).
func SwiftPins(data []byte) ([]SwiftPin, error) {
	type state struct {
		Version  *string `json:"version"`
		Revision string  `json:"revision"`
		Branch   *string `json:"branch"`
	}
	type pin struct {
		Identity      string `json:"identity"`
		Location      string `json:"location"`
		Package       string `json:"package"`
		RepositoryURL string `json:"repositoryURL"`
		State         state  `json:"state"`
	}
	var doc struct {
		Version int   `json:"version"`
		Pins    []pin `json:"pins"`
		Object  struct {
			Pins []pin `json:"pins"`
		} `json:"object"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: Package.resolved: %v", ErrFormat, err)
	}
	pins := doc.Pins
	if len(pins) == 0 {
		pins = doc.Object.Pins
	}
	out := make([]SwiftPin, 0, len(pins))
	for _, p := range pins {
		sp := SwiftPin{Identity: p.Identity, Location: p.Location, Revision: p.State.Revision}
		if sp.Location == "" {
			sp.Location = p.RepositoryURL
		}
		if sp.Identity == "" {
			sp.Identity = RepoIdentity(sp.Location)
		}
		sp.Identity = strings.ToLower(sp.Identity)
		if p.State.Version != nil {
			sp.Version = *p.State.Version
		}
		if p.State.Branch != nil {
			sp.Branch = *p.State.Branch
		}
		out = append(out, sp)
	}
	return out, nil
}

// RepoIdentity is SwiftPM's identity of a package location: the last path
// component without ".git", lower-cased.
func RepoIdentity(location string) string {
	location = strings.TrimRight(location, "/")
	if i := strings.LastIndexAny(location, "/:"); i >= 0 {
		location = location[i+1:]
	}
	return strings.ToLower(strings.TrimSuffix(location, ".git"))
}

// RequirementsVersion returns the version pinned with "==" (or "===") for
// the distribution named (already normalised by norm) in a pip
// requirements file. Extras, environment markers, hashes and comments are
// ignored; options and includes are skipped.
func RequirementsVersion(data []byte, name string, norm func(string) string) (string, bool) {
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(strings.TrimSuffix(line, "\\"))
		if line == "" || line[0] == '#' || line[0] == '-' {
			continue
		}
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		n, v, ok := strings.Cut(line, "==")
		if !ok {
			continue
		}
		if i := strings.IndexByte(n, '['); i >= 0 {
			n = n[:i]
		}
		v = strings.TrimPrefix(v, "=")
		if f := strings.Fields(v); len(f) > 0 {
			v = f[0]
		}
		if norm(strings.TrimSpace(n)) == name && v != "" && !strings.ContainsAny(v, "*,<>!~") {
			return v, true
		}
	}
	return "", false
}

// PipfileVersion returns the "==" version of name (normalised by norm) in
// a Pipfile.lock's default or develop section.
func PipfileVersion(data []byte, name string, norm func(string) string) (string, bool) {
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return "", false
	}
	for _, section := range []string{"default", "develop"} {
		var pkgs map[string]struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(doc[section], &pkgs) != nil {
			continue
		}
		for n, p := range pkgs {
			if norm(n) == name && strings.HasPrefix(p.Version, "==") {
				return strings.TrimPrefix(p.Version, "=="), true
			}
		}
	}
	return "", false
}
