package npm

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolveProject: one walk up from the project gives everything the
// readers need about a package: where it and its @types package are
// installed, the version the project uses and where that came from.
func TestResolveProject(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	write("app/package-lock.json", `{"packages": {"node_modules/locked": {"version": "2.0.0"}, "node_modules/inst": {"version": "0.0.1"}}}`)
	write("app/node_modules/inst/package.json", `{"name": "inst", "version": "1.4.0"}`)
	write("app/node_modules/@types/inst/package.json", `{"name": "@types/inst", "version": "1.4.2"}`)
	write("app/web/src/.keep", "")
	write("node_modules/above/package.json", `{"name": "above", "version": "9.0.0"}`)
	write("yarnapp/package.json", `{"dependencies": {"y": "^1.2.0"}}`)
	write("yarnapp/yarn.lock", "\"y@^1.0.0\":\n  version \"1.0.0\"\n\n\"y@^1.2.0\":\n  version \"1.2.5\"\n")
	tests := []struct {
		name, project, pkg        string
		dir, types, version, from string
		spec                      string
	}{
		{"installed, with its @types, from a subdirectory", "app/web/src", "inst", "app/node_modules/inst", "app/node_modules/@types/inst", "1.4.0", "installed node_modules", ""},
		{"locked, not installed", "app/web", "locked", "", "", "2.0.0", "package-lock.json", ""},
		{"nothing above the lock file's directory", "app", "above", "", "", "", "", ""},
		{"yarn: the entry for package.json's range", "yarnapp", "y", "", "", "1.2.5", "yarn.lock", "^1.2.0"},
		{"no project", "", "inst", "", "", "", "", ""},
	}
	for _, tt := range tests {
		project := ""
		if tt.project != "" {
			project = filepath.Join(root, filepath.FromSlash(tt.project))
		}
		v := resolveProject(project, tt.pkg)
		rel := func(p string) string {
			if p == "" {
				return ""
			}
			r, _ := filepath.Rel(root, p)
			return filepath.ToSlash(r)
		}
		if rel(v.dir) != tt.dir || rel(v.typesDir) != tt.types || v.version != tt.version || v.from != tt.from || v.spec != tt.spec {
			t.Errorf("%s: dir %q types %q version %q from %q spec %q", tt.name, rel(v.dir), rel(v.typesDir), v.version, v.from, v.spec)
		}
	}
}

func TestWantedVersion(t *testing.T) {
	locked := &projectView{version: "4.17.21", from: "package-lock.json"}
	tests := []struct {
		asked   string
		view    *projectView
		want    versionChoice
		meaning string
	}{
		{"", &projectView{}, versionChoice{"latest", "dist-tag latest"}, "nothing asked, no project: the latest"},
		{"", locked, versionChoice{"4.17.21", "package-lock.json"}, "nothing asked: the project's version"},
		{"4.17.20", locked, versionChoice{"4.17.20", "explicit"}, "an exact version beats the project's"},
		{"^4.17.0", locked, versionChoice{"^4.17.0", "semver range ^4.17.0"}, "a range"},
		{"next", locked, versionChoice{"next", "dist-tag next"}, "a dist-tag"},
	}
	for _, tt := range tests {
		if got := wantedVersion(tt.asked, tt.view); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.meaning, got, tt.want)
		}
	}
}
