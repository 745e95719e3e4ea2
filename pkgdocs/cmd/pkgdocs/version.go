package main

import "runtime/debug"

// buildVersion is the version of this pkgdocs binary: the module version
// recorded by `go install module@version`, or, in a build from a checkout,
// "devel" followed by the VCS revision when the build recorded one.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(info)
}

// versionOf extracts the version from build information.
func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "devel"
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev
		if modified == "true" {
			v += "+dirty"
		}
	}
	return v
}
