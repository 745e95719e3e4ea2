package lockfile

import "strings"

// YarnVersion returns the version of npm package name locked in a
// yarn.lock, classic (v1: `"name@^1.0.0":` / `  version "1.2.3"`) or Berry
// (YAML: `"name@npm:^1.0.0":` / `  version: 1.2.3`). spec is the range the
// project's package.json asks for ("" if unknown): the entry resolving that
// range wins; otherwise the only entry, else the highest version.
func YarnVersion(data []byte, name, spec string) (string, bool) {
	type entry struct {
		ranges  []string
		version string
	}
	var entries []*entry
	var cur *entry
	for _, raw := range strings.Split(string(data), "\n") {
		raw = strings.TrimRight(raw, "\r \t")
		trimmed := strings.TrimLeft(raw, " ")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		if trimmed == raw { // a top-level entry header
			cur = nil
			if !strings.HasSuffix(raw, ":") {
				continue
			}
			var ranges []string
			for _, d := range strings.Split(strings.ReplaceAll(raw[:len(raw)-1], `"`, ""), ",") {
				if n, r, ok := splitDescriptor(strings.TrimSpace(d)); ok && n == name {
					ranges = append(ranges, r)
				}
			}
			if len(ranges) > 0 {
				cur = &entry{ranges: ranges}
				entries = append(entries, cur)
			}
			continue
		}
		if cur == nil || len(raw)-len(trimmed) > 2 {
			continue
		}
		if v, ok := strings.CutPrefix(trimmed, "version"); ok && (strings.HasPrefix(v, " ") || strings.HasPrefix(v, ":")) {
			cur.version = strings.Trim(strings.TrimSpace(strings.TrimPrefix(v, ":")), `"'`)
		}
	}
	var versions []string
	for _, e := range entries {
		if e.version == "" {
			continue
		}
		if spec != "" {
			for _, r := range e.ranges {
				if r == spec {
					return e.version, true
				}
			}
		}
		versions = append(versions, e.version)
	}
	if len(versions) == 0 {
		return "", false
	}
	return highestSemver(versions), true
}

// splitDescriptor splits "name@range" (the name may be scoped); Berry's
// "npm:" protocol prefix is removed from the range.
func splitDescriptor(d string) (name, rng string, ok bool) {
	start := 0
	if strings.HasPrefix(d, "@") {
		start = 1
	}
	at := strings.IndexByte(d[start:], '@')
	if at < 0 {
		return "", "", false
	}
	name, rng = d[:start+at], d[start+at+1:]
	return name, strings.TrimPrefix(rng, "npm:"), true
}
