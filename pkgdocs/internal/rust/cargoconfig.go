package rust

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/projectdir"
)

// cargoSource is one [source.NAME] table of a Cargo configuration file:
// where Cargo takes crates from instead of crates.io when a replace-with
// chain leads to it.
type cargoSource struct {
	directory     string // directory = "vendor": unpacked crates (cargo vendor, Debian)
	localRegistry string // local-registry = "path": .crate archives
	replaceWith   string // replace-with = "other-source"
}

// parseCargoConfig reads the [source.*] tables of a Cargo configuration
// file (.cargo/config.toml). It understands the subset of TOML those
// tables use: table headers, dotted table headers with quoted parts, and
// string values; anything else is skipped. Relative paths are returned as
// written.
func parseCargoConfig(data string) map[string]cargoSource {
	out := map[string]cargoSource{}
	current := ""
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(stripTOMLComment(line))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			current = ""
			header := strings.TrimSpace(strings.Trim(line, "[]"))
			if parts := tomlKeyParts(header); len(parts) == 2 && parts[0] == "source" {
				current = parts[1]
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		parts := tomlKeyParts(strings.TrimSpace(k))
		name := current
		if len(parts) == 3 && parts[0] == "source" && current == "" {
			name, parts = parts[1], parts[2:] // source.vendored.directory = "vendor"
		}
		if name == "" || len(parts) != 1 {
			continue
		}
		val, ok := tomlString(strings.TrimSpace(v))
		if !ok {
			continue
		}
		src := out[name]
		switch parts[0] {
		case "directory":
			src.directory = val
		case "local-registry":
			src.localRegistry = val
		case "replace-with":
			src.replaceWith = val
		default:
			continue
		}
		out[name] = src
	}
	return out
}

// stripTOMLComment drops a # comment that is not inside a string.
func stripTOMLComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

// tomlKeyParts splits a dotted TOML key (source."crates-io") into its
// parts, unquoted; it returns nil for a key it cannot read.
func tomlKeyParts(key string) []string {
	var parts []string
	for key != "" {
		key = strings.TrimSpace(key)
		var part string
		if key != "" && (key[0] == '"' || key[0] == '\'') {
			end := strings.IndexByte(key[1:], key[0])
			if end < 0 {
				return nil
			}
			part, key = key[1:end+1], key[end+2:]
		} else {
			i := strings.IndexByte(key, '.')
			if i < 0 {
				i = len(key)
			}
			part, key = strings.TrimSpace(key[:i]), key[i:]
		}
		parts = append(parts, part)
		key = strings.TrimSpace(key)
		if key == "" {
			break
		}
		if key[0] != '.' {
			return nil
		}
		key = key[1:]
		if strings.TrimSpace(key) == "" {
			return nil
		}
	}
	return parts
}

// tomlString reads a basic or literal TOML string value.
func tomlString(v string) (string, bool) {
	if len(v) < 2 || (v[0] != '"' && v[0] != '\'') || v[len(v)-1] != v[0] {
		return "", false
	}
	s := v[1 : len(v)-1]
	if v[0] == '"' {
		s = strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(s)
	}
	return s, true
}

// localSourceKind says how a directory holds crates.
type localSourceKind int

const (
	dirSource      localSourceKind = iota // <dir>/<name>-<version>/ or <dir>/<name>/ (cargo vendor, Debian)
	archiveSource                         // <dir>/<name>-<version>.crate (a local registry)
	registrySource                        // $CARGO_HOME/registry/src/<index>/<name>-<version>/
)

// localSource is a place on disk the project's Cargo reads crates from.
type localSource struct {
	kind localSourceKind
	dir  string
	from string // how it was found, for the answer's header
}

// projectSources returns where Cargo would read crates for the project:
// the source that replaces crates.io in the project's .cargo/config.toml
// files (nearest first) or Cargo home's config.toml (a directory source,
// as `cargo vendor` and Debian set up, or a local registry), a vendor/
// directory beside the project's Cargo.lock, then Cargo's unpacked
// registry sources.
func projectSources(project, home string) []localSource {
	var out []localSource
	var configs []string
	if project != "" {
		for _, d := range projectdir.Ancestors(project) {
			configs = append(configs, filepath.Join(d, ".cargo", "config.toml"), filepath.Join(d, ".cargo", "config"))
		}
	}
	if home != "" {
		configs = append(configs, filepath.Join(home, "config.toml"), filepath.Join(home, "config"))
	}
	for _, c := range configs {
		data, err := os.ReadFile(c)
		if err != nil || len(data) > 1<<20 {
			continue
		}
		base := filepath.Dir(filepath.Dir(c)) // paths are relative to the directory holding .cargo
		if src, ok := replacement(parseCargoConfig(string(data))); ok {
			rel := src.directory
			kind := dirSource
			if rel == "" {
				rel, kind = src.localRegistry, archiveSource
			}
			if !filepath.IsAbs(rel) {
				rel = filepath.Join(base, filepath.FromSlash(rel))
			}
			out = append(out, localSource{kind: kind, dir: rel, from: c})
		}
	}
	if project != "" {
		if lock := nearestFile(project, "Cargo.lock"); lock != "" {
			out = append(out, localSource{kind: dirSource, dir: filepath.Join(filepath.Dir(lock), "vendor"), from: "vendor/ beside Cargo.lock"})
		}
	}
	if home != "" {
		out = append(out, localSource{kind: registrySource, dir: filepath.Join(home, "registry", "src"), from: "Cargo registry sources"})
	}
	return out
}

// replacement follows crates-io's replace-with chain to the source that
// has crates on disk.
func replacement(srcs map[string]cargoSource) (cargoSource, bool) {
	name := "crates-io"
	for range 8 {
		s, ok := srcs[name]
		if !ok {
			return cargoSource{}, false
		}
		if s.directory != "" || s.localRegistry != "" {
			return s, name != "crates-io"
		}
		if s.replaceWith == "" {
			return cargoSource{}, false
		}
		name = s.replaceWith
	}
	return cargoSource{}, false
}
