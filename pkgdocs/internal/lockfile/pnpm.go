package lockfile

import (
	"sort"
	"strings"

	"golang.org/x/mod/semver"
)

var pnpmDepKinds = []string{"dependencies", "devDependencies", "optionalDependencies"}

// PNPMVersion returns the version of npm package name that the importer
// (the project directory relative to the lock file, "." for the root) has
// locked in a pnpm-lock.yaml. It reads lockfile versions 5.x (top-level
// dependencies, "/name/1.0.0" keys), 6.x (specifier/version pairs,
// "/name@1.0.0" keys) and 9.x (importers, "name@1.0.0" keys). Workspace
// links and aliases are not versions and are skipped. When the importer
// does not list the package (a transitive dependency), the highest version
// among the locked packages is returned.
func PNPMVersion(data []byte, importer, name string) (string, bool) {
	root := parseYAML(data)
	if importer == "" {
		importer = "."
	}
	scope := root
	if imps := root.child("importers"); imps != nil {
		scope = imps.child(importer)
	}
	for _, kind := range pnpmDepKinds {
		dep := scope.child(kind).child(name)
		if dep == nil {
			continue
		}
		v := dep.value
		if ver := dep.child("version"); ver != nil {
			v = ver.value
		}
		if v = cleanPNPMVersion(v); v != "" {
			return v, true
		}
	}
	var found []string
	for _, p := range root.child("packages").kids() {
		n, v := splitPNPMKey(p.key)
		if n == name && v != "" {
			found = append(found, v)
		}
	}
	if len(found) == 0 {
		return "", false
	}
	return highestSemver(found), true
}

// cleanPNPMVersion drops peer-dependency suffixes ("1.0.0(react@18.2.0)",
// v5's "1.0.0_react@18.2.0") and rejects links and aliases.
func cleanPNPMVersion(v string) string {
	if strings.HasPrefix(v, "/") { // v5 alias form "/name/1.0.0"
		v = v[strings.LastIndexByte(v, '/')+1:]
	}
	if i := strings.IndexByte(v, '('); i >= 0 {
		v = v[:i]
	}
	if i := strings.IndexByte(v, '_'); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, ":@/ ") || v[0] < '0' || v[0] > '9' {
		return ""
	}
	return v
}

// splitPNPMKey splits a packages key: "/name/1.0.0" (v5), "/name@1.0.0"
// (v6) or "name@1.0.0(peer@1)" (v9), scoped names included.
func splitPNPMKey(key string) (name, version string) {
	key = strings.TrimPrefix(key, "/")
	if i := strings.IndexByte(key, '('); i >= 0 {
		key = key[:i]
	}
	start := 0
	if strings.HasPrefix(key, "@") {
		start = 1
	}
	if at := strings.IndexByte(key[start:], '@'); at >= 0 {
		return key[:start+at], cleanPNPMVersion(key[start+at+1:])
	}
	if slash := strings.LastIndexByte(key, '/'); slash > start {
		return key[:slash], cleanPNPMVersion(key[slash+1:])
	}
	return key, ""
}

// highestSemver returns the highest of versions written without a "v".
func highestSemver(versions []string) string {
	sort.SliceStable(versions, func(i, j int) bool {
		return semver.Compare("v"+versions[i], "v"+versions[j]) > 0
	})
	return versions[0]
}
