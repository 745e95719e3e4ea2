package main

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// composeEnv stands for the variables compose.yaml asks for.
var composeEnv = map[string]string{"PKGDOCS_ISSUER": "https://auth.example.com/realms/dev"}

// expandCompose substitutes ${VAR:-default} and ${VAR:?message} as
// docker compose does, from composeEnv.
func expandCompose(t *testing.T, s string) string {
	re := regexp.MustCompile(`\$\{([A-Z_]+)(:-|:\?)([^}]*)\}`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if v, ok := composeEnv[sub[1]]; ok {
			return v
		}
		if sub[2] == ":?" {
			t.Errorf("compose.yaml needs %s (%s) and the test does not set it", sub[1], sub[3])
		}
		return sub[3]
	})
}

// TestDeployFiles: the guide shows the deployment files as they are, and
// the compose file starts pkgdocs with flags it has, in a combination it
// accepts.
func TestDeployFiles(t *testing.T) {
	guide := readFile(t, "../../../docs/deploying-pkgdocs.md")
	compose := readFile(t, "../../deploy/compose.yaml")
	caddyfile := readFile(t, "../../deploy/Caddyfile")
	for lang, file := range map[string]string{"yaml": compose, "caddyfile": caddyfile} {
		m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindStringSubmatch(guide)
		if m == nil || m[1] != file {
			t.Errorf("docs/deploying-pkgdocs.md: the %s block is not the file as it is", lang)
		}
	}

	// The command: a YAML flow sequence of double-quoted strings, which is
	// also JSON.
	m := regexp.MustCompile(`(?s)\n  command: (\[.*?\])`).FindStringSubmatch(compose)
	if m == nil {
		t.Fatal("compose.yaml: no command for pkgdocs")
	}
	var args []string
	if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
		t.Fatalf("compose.yaml command: %v", err)
	}
	var o options
	fs := flags(&o, io.Discard)
	var known []string
	for i := 0; i < len(args); i++ {
		name, isFlag := strings.CutPrefix(args[i], "--")
		if isFlag && fs.Lookup(name) == nil {
			t.Errorf("compose.yaml: pkgdocs has no flag --%s", name)
			i++ // its value
			continue
		}
		known = append(known, expandCompose(t, args[i]))
	}
	pos, err := parseInterspersed(fs, known)
	if err != nil || len(pos) != 1 || pos[0] != "serve" {
		t.Fatalf("compose.yaml command %q: %v, positional %q", known, err, pos)
	}
	if o.httpAddr != ":8080" || !o.team.stateless || o.team.issuer == "" || o.team.resource != "https://pkgdocs.example.com/mcp" {
		t.Errorf("compose.yaml: serves %q, stateless %v, issuer %q, resource %q", o.httpAddr, o.team.stateless, o.team.issuer, o.team.resource)
	}
	cfg := testTeamConfig(io.Discard)
	cfg.teamOptions = o.team
	if _, err := newTeamServer(mcp.NewServer("x", "v1", nil), cfg); err != nil {
		t.Errorf("compose.yaml's flags are refused: %v", err)
	}

	// Caddy sends requests to the three instances, checking /readyz.
	for _, want := range []string{"pkgdocs-1:8080 pkgdocs-2:8080 pkgdocs-3:8080", "health_uri /readyz"} {
		if !strings.Contains(caddyfile, want) {
			t.Errorf("Caddyfile lacks %q", want)
		}
	}
	for _, svc := range []string{"pkgdocs-1:", "pkgdocs-2:", "pkgdocs-3:", "redis:", "caddy:"} {
		if !strings.Contains(compose, "\n  "+svc+"\n") {
			t.Errorf("compose.yaml has no service %s", strings.TrimSuffix(svc, ":"))
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
