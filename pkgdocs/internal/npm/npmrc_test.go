package npm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseNpmrc(t *testing.T) {
	src := `; comment
# another
registry = "https://npm.example.com/repo/"
@acme:registry=https://acme.example.com/npm/
//npm.example.com/repo/:_authToken=${NPM_TOKEN}
//my.private.registry/npm/:_authToken=${MY_TOKEN?}
escaped=\${LITERAL}
list[]=ignored
[section]
inside=ignored
`
	got, err := ParseNpmrc([]byte(src), env(map[string]string{"NPM_TOKEN": "tok-123"}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"registry":                              "https://npm.example.com/repo/",
		"@acme:registry":                        "https://acme.example.com/npm/",
		"//npm.example.com/repo/:_authToken":    "tok-123",
		"//my.private.registry/npm/:_authToken": "",
		"escaped":                               "${LITERAL}",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	_, err = ParseNpmrc([]byte("//h/:_authToken=${UNSET_TOKEN}\n"), env(nil))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "UNSET_TOKEN") {
		t.Fatalf("unset variable: err = %v", err)
	}
}

func TestConfigAuthLongestNerfDart(t *testing.T) {
	c := FromValues(map[string]string{
		"registry":                        "https://nexus.example.com/repository/npm/",
		"//nexus.example.com/:_authToken": "host-token",
		"//nexus.example.com/repository/npm/:_authToken":  "npm-token",
		"//nexus.example.com/repository/other/:username":  "bob",
		"//nexus.example.com/repository/other/:_password": "c2VjcmV0", // "secret"
		"@acme:registry": "https://acme.example.com/",
		"_authToken":     "bare-token",
	})
	tests := []struct {
		url, want, key string
	}{
		{"https://nexus.example.com/repository/npm/express", "Bearer npm-token", "//nexus.example.com/repository/npm/:_authToken"},
		{"https://nexus.example.com/repository/npm/express/-/express-5.0.0.tgz", "Bearer npm-token", "//nexus.example.com/repository/npm/:_authToken"},
		{"https://nexus.example.com/repository/other/x", "Basic Ym9iOnNlY3JldA==", "//nexus.example.com/repository/other/:_password"},
		{"https://nexus.example.com/elsewhere/x", "Bearer host-token", "//nexus.example.com/:_authToken"},
		{"https://cdn.example.net/express.tgz", "", ""}, // a foreign host gets nothing
		{"https://acme.example.com/@acme%2fwidget", "", ""},
	}
	for _, tt := range tests {
		got, key := c.Auth(tt.url)
		if got != tt.want || key != tt.key {
			t.Errorf("Auth(%s) = %q (%s), want %q (%s)", tt.url, got, key, tt.want, tt.key)
		}
	}
	if r := c.Registry("@acme/widget"); r != "https://acme.example.com/" {
		t.Errorf("scoped registry = %s", r)
	}
	if r := c.Registry("express"); r != "https://nexus.example.com/repository/npm/" {
		t.Errorf("default registry = %s", r)
	}
}

func TestLoadConfigPrecedence(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "app")
	sub := filepath.Join(proj, "packages", "web")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(home, ".npmrc"), []byte("registry=https://user.example.com/\n@acme:registry=https://user-acme.example.com/\n"), 0o644)
	os.WriteFile(filepath.Join(proj, ".npmrc"), []byte("@acme:registry=https://project-acme.example.com/\n"), 0o644)
	c, err := LoadConfig(LoadOptions{
		ProjectPath: sub, Home: home, Getenv: env(nil),
		Environ: func() []string { return []string{"npm_config_registry=https://env.example.com/"} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Registry("express"); got != "https://env.example.com/" {
		t.Errorf("environment must win: registry = %s", got)
	}
	if got := c.Registry("@acme/x"); got != "https://project-acme.example.com/" {
		t.Errorf("project .npmrc (found walking up) must beat the user file: %s", got)
	}
	uc := filepath.Join(t.TempDir(), "custom-npmrc")
	os.WriteFile(uc, []byte("registry=https://custom.example.com\n"), 0o644)
	c, _ = LoadConfig(LoadOptions{Home: home, Getenv: env(map[string]string{"NPM_CONFIG_USERCONFIG": uc}), Environ: func() []string { return nil }})
	if got := c.Registry("express"); got != "https://custom.example.com/" {
		t.Errorf("NPM_CONFIG_USERCONFIG replaces ~/.npmrc: %s", got)
	}
}

func FuzzNpmrc(f *testing.F) {
	f.Add("registry=https://r/\n//r/:_authToken=${T}\n")
	f.Add("a=\"quoted\"\n;c\n[s]\nx=y\n")
	f.Add("k=\\\\${T?}${T}\n")
	f.Fuzz(func(t *testing.T, src string) {
		vals, err := ParseNpmrc([]byte(src), env(map[string]string{"T": "tok"}))
		if err != nil {
			return
		}
		c := FromValues(vals)
		c.Auth("https://r/x/y")
		c.Registry("@s/x")
	})
}
