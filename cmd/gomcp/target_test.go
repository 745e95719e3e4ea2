package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLookupServer reads @NAME from the config files of Claude Code,
// Cursor, VS Code and Claude Desktop, and from --config, with ${VAR}
// expansion.
func TestLookupServer(t *testing.T) {
	env, _, _ := testEnv(t, "", map[string]string{"TOKEN": "s3cret", "REGION": "eu"})
	writeFile(t, filepath.Join(env.wd, ".mcp.json"), `{"mcpServers":{
		"proj":{"command":"node","args":["server.js","--region","${REGION}"],"env":{"KEY":"${TOKEN}"}}}}`)
	writeFile(t, filepath.Join(env.wd, ".vscode", "mcp.json"), `{"servers":{
		"vs":{"type":"http","url":"https://vs.example/mcp","headers":{"Authorization":"Bearer ${env:TOKEN}"}}}}`)
	writeFile(t, filepath.Join(env.home, ".cursor", "mcp.json"), `{"mcpServers":{
		"cur":{"url":"https://cursor.example/sse","type":"sse"},
		"proj":{"command":"shadowed"}}}`)
	writeFile(t, filepath.Join(env.home, ".claude.json"), `{"mcpServers":{"user":{"command":"u"}},
		"projects":{"`+env.wd+`":{"mcpServers":{"local":{"command":"l","args":["${MISSING:-fallback}"]}}}}}`)
	writeFile(t, claudeDesktopConfig(env), `{"mcpServers":{"desk":{"command":"d"}}}`)
	custom := filepath.Join(t.TempDir(), "custom.json")
	writeFile(t, custom, `{"mcpServers":{"c":{"url":"https://c.example/mcp"},"bad":{"command":"${NOPE}"}}}`)

	tests := []struct {
		name, config string
		want         *target
		err          bool
	}{
		{"proj", "", &target{name: "proj", command: []string{"node", "server.js", "--region", "eu"}, env: []string{"KEY=s3cret"}}, false},
		{"vs", "", &target{name: "vs", url: "https://vs.example/mcp", headers: []string{"Authorization: Bearer s3cret"}}, false},
		{"cur", "", &target{name: "cur", url: "https://cursor.example/sse", sse: true}, false},
		{"user", "", &target{name: "user", command: []string{"u"}}, false},
		{"local", "", &target{name: "local", command: []string{"l", "fallback"}}, false},
		{"desk", "", &target{name: "desk", command: []string{"d"}}, false},
		{"c", custom, &target{name: "c", url: "https://c.example/mcp"}, false},
		{"proj", custom, nil, true},
		{"bad", custom, nil, true},
		{"nothing", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name+tt.config, func(t *testing.T) {
			got, err := lookupServer(env, tt.config, tt.name)
			if tt.err {
				if err == nil {
					t.Fatalf("lookupServer = %+v, want an error", got)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("lookupServer = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestAtNameEndToEnd runs a command against a stdio server named in
// --config.
func TestAtNameEndToEnd(t *testing.T) {
	config := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, config, `{"mcpServers":{"everything":{"command":"`+everythingBin+`"}}}`)
	r := runCLI(t, "call", "--config", config, "@everything", "greet", "name=Config")
	if r.code != 0 || r.stdout != "Hello, Config!\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestParseLine checks that flags are accepted anywhere before "--".
func TestParseLine(t *testing.T) {
	o := &options{}
	fs := newFlagSet("call", fTarget|fOutput|fArgs, o)
	pos, cmd, err := parseLine(fs, []string{"tool", "--json", "a=1", "-e", "K=V", "b=2", "--", "srv", "--json", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pos, []string{"tool", "a=1", "b=2"}) || !reflect.DeepEqual(cmd, []string{"srv", "--json", "x"}) || !o.json || !reflect.DeepEqual([]string(o.env), []string{"K=V"}) {
		t.Fatalf("positional %q, command %q, options %+v", pos, cmd, o)
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "x${B:-d}y", "${env:A}", "${", "${}", "${input:x}", "$${A}}"} {
		f.Add(s)
	}
	env := &environ{lookupEnv: func(k string) (string, bool) { return "v", k == "A" }}
	f.Fuzz(func(t *testing.T, s string) {
		x := expander{env: env}
		_ = x.expand(s)
	})
}

func FuzzConfigFile(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x","args":["${A}"]}}}`))
	f.Add([]byte(`{"servers":{"b":{"url":"http://x","headers":{"h":"v"}}},"projects":{"/":{"mcpServers":{}}}}`))
	env := &environ{lookupEnv: func(k string) (string, bool) { return "v", true }}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "c.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		servers, err := readServers(path, "/")
		if err != nil {
			return
		}
		for _, raw := range servers {
			_, _ = entryTarget(raw, env)
		}
	})
}

// TestStdioEnvironment checks -e and --cwd for a stdio server, and
// variables of a config entry.
func TestStdioEnvironment(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, append([]string{"call", "-e", "GOMCP_GREETING=hello", "--cwd", dir, "env", "name=GOMCP_GREETING", "--"}, selfCommand("stdio")...)...)
	if r.code != 0 || r.stdout != "hello in "+filepath.Base(dir)+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	config := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, config, fmt.Sprintf(`{"mcpServers":{"s":{"command":"env","args":["GOMCP_TEST_SERVER=stdio",%q,"-test.run=^$"],"env":{"GOMCP_GREETING":"${WORD}"}}}}`, os.Args[0]))
	env, out, errw := testEnv(t, "", map[string]string{"WORD": "expanded"})
	r = runIn(t, env, out, errw, "call", "--config", config, "@s", "env", "name=GOMCP_GREETING")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "expanded in ") {
		t.Fatalf("config: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}
