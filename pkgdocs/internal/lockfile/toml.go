// Package lockfile reads the version pins of project lock files: Cargo.lock,
// uv.lock, poetry.lock and pylock.toml ([[package]] tables), pnpm-lock.yaml,
// yarn.lock (classic and Berry), SwiftPM's Package.resolved and pip
// requirement files. Each reader understands only what pkgdocs needs (a
// package's locked version) and never fails on input it does not understand:
// it reports "not found" instead.
package lockfile

import (
	"sort"
	"strings"

	"golang.org/x/mod/semver"
)

// Package is one [[package]] entry of a TOML lock file.
type Package struct {
	Name         string
	Version      string
	Source       string   // Cargo: "registry+https://...", "git+..."; "" for path packages
	Dependencies []string // Cargo: "name" or "name version [(source)]"
}

// TOMLPackages reads the [[package]] (or PEP 751's [[packages]]) array of
// tables of Cargo.lock, uv.lock, poetry.lock or pylock.toml. Keys of
// sub-tables such as [package.dependencies] are ignored, so a dependency
// called "version" never overrides the package's own version.
func TOMLPackages(data []byte) []Package {
	var out []Package
	var cur *Package
	inArray := "" // key of a multi-line array being read
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(stripTOMLComment(raw))
		if inArray != "" {
			if cur != nil && inArray == "dependencies" {
				cur.Dependencies = append(cur.Dependencies, tomlStrings(line)...)
			}
			if strings.Contains(line, "]") {
				inArray = ""
			}
			continue
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if line == "[[package]]" || line == "[[packages]]" {
				out = append(out, Package{})
				cur = &out[len(out)-1]
			} else {
				cur = nil // another table, or a sub-table of the package
			}
			continue
		}
		if cur == nil {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "name":
			cur.Name = tomlString(val)
		case "version":
			cur.Version = tomlString(val)
		case "source":
			cur.Source = tomlString(val)
		case "dependencies":
			if strings.HasPrefix(val, "[") {
				cur.Dependencies = append(cur.Dependencies, tomlStrings(val)...)
				if !strings.Contains(val, "]") {
					inArray = key
				}
			}
		default:
			if strings.HasPrefix(val, "[") && !strings.Contains(val, "]") {
				inArray = key
			}
		}
	}
	return out
}

// stripTOMLComment removes a '#' comment that is not inside a string.
func stripTOMLComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return s[:i]
		}
	}
	return s
}

// tomlString returns the value of a basic or literal TOML string, or ""
// when val is not a string.
func tomlString(val string) string {
	if len(val) < 2 {
		return ""
	}
	q := val[0]
	if q != '"' && q != '\'' {
		return ""
	}
	end := strings.IndexByte(val[1:], q)
	if end < 0 {
		return ""
	}
	s := val[1 : 1+end]
	if q == '"' {
		s = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
	}
	return s
}

// tomlStrings returns the string elements found on one line of an array.
func tomlStrings(line string) []string {
	var out []string
	for {
		i := strings.IndexAny(line, `"'`)
		if i < 0 {
			return out
		}
		q := line[i]
		j := strings.IndexByte(line[i+1:], q)
		if j < 0 {
			return out
		}
		out = append(out, line[i+1:i+1+j])
		line = line[i+2+j:]
	}
}

// CargoVersion returns the version of crate name locked in a Cargo.lock.
// When several versions are locked, the one a workspace member (a package
// without a source) depends on wins, then the highest.
func CargoVersion(data []byte, name string) (string, bool) {
	pkgs := TOMLPackages(data)
	var versions []string
	for _, p := range pkgs {
		if p.Name == name && p.Version != "" && p.Source != "" {
			versions = append(versions, p.Version)
		}
	}
	switch len(versions) {
	case 0:
		return "", false
	case 1:
		return versions[0], true
	}
	for _, p := range pkgs {
		if p.Source != "" {
			continue
		}
		for _, d := range p.Dependencies {
			fields := strings.Fields(d)
			if len(fields) >= 2 && fields[0] == name {
				return fields[1], true
			}
		}
	}
	sort.Slice(versions, func(i, j int) bool { return semver.Compare("v"+versions[i], "v"+versions[j]) > 0 })
	return versions[0], true
}

// PythonVersion returns the version of the distribution named (already
// PEP 503-normalised by norm) in a uv.lock, poetry.lock or pylock.toml.
func PythonVersion(data []byte, name string, norm func(string) string) (string, bool) {
	for _, p := range TOMLPackages(data) {
		if p.Version != "" && norm(p.Name) == name {
			return p.Version, true
		}
	}
	return "", false
}
