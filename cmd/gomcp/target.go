package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// A target is the server a command talks to: a URL or a stdio command.
type target struct {
	name    string   // @NAME it came from, if any
	url     string   // streamable HTTP (or HTTP+SSE) endpoint
	sse     bool     // the config says the endpoint is HTTP+SSE
	headers []string // "Name: Value"
	command []string // stdio server and its arguments
	env     []string // KEY=VALUE added to the server's environment
	cwd     string
}

// String names the target in messages.
func (t *target) String() string {
	switch {
	case t.name != "":
		return "@" + t.name
	case t.url != "":
		return t.url
	}
	return strings.Join(t.command, " ")
}

// serverEntry is one server of an mcpServers (or VS Code "servers") map.
type serverEntry struct {
	Type      string            `json:"type"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	ServerURL string            `json:"serverUrl"`
	Headers   map[string]string `json:"headers"`
}

// configFile is what this program reads of an MCP client's config file.
type configFile struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	Servers    map[string]json.RawMessage `json:"servers"` // VS Code
	// Projects holds Claude Code's per-directory servers (~/.claude.json).
	Projects map[string]struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	} `json:"projects"`
}

// maxConfigSize bounds a config file read.
const maxConfigSize = 16 << 20

// configPaths lists the files searched for @NAME, first match wins:
// project files before user files.
func configPaths(env *environ) []string {
	home, wd := env.home, env.wd
	paths := []string{
		filepath.Join(wd, ".mcp.json"),           // Claude Code, project
		filepath.Join(wd, ".cursor", "mcp.json"), // Cursor, project
		filepath.Join(wd, ".vscode", "mcp.json"), // VS Code, workspace
	}
	if home != "" {
		paths = append(paths,
			filepath.Join(home, ".claude.json"),        // Claude Code, user and local
			filepath.Join(home, ".cursor", "mcp.json"), // Cursor, user
			claudeDesktopConfig(env),
		)
	}
	return paths
}

// claudeDesktopConfig is where Claude Desktop keeps its config.
func claudeDesktopConfig(env *environ) string {
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(env.home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	case "windows":
		return filepath.Join(env.getenv("APPDATA"), "Claude", "claude_desktop_config.json")
	}
	base := env.getenv("XDG_CONFIG_HOME")
	if base == "" {
		base = filepath.Join(env.home, ".config")
	}
	return filepath.Join(base, "Claude", "claude_desktop_config.json")
}

// lookupServer finds the server called name in the config file given with
// --config, or in the usual places.
func lookupServer(env *environ, configPath, name string) (*target, error) {
	paths := configPaths(env)
	if configPath != "" {
		paths = []string{configPath}
	}
	var known []string
	for _, p := range paths {
		servers, err := readServers(p, env.wd)
		if errors.Is(err, fs.ErrNotExist) && configPath == "" {
			continue
		}
		if err != nil {
			return nil, usageError("reading %s: %v", p, err)
		}
		if raw, ok := servers[name]; ok {
			t, err := entryTarget(raw, env)
			if err != nil {
				return nil, usageError("server %q in %s: %v", name, p, err)
			}
			t.name = name
			return t, nil
		}
		for n := range servers {
			known = append(known, n)
		}
	}
	sort.Strings(known)
	if len(known) == 0 {
		return nil, usageError("no server named %q: no MCP config file found (give one with --config)", name)
	}
	return nil, usageError("no server named %q (known: %s)", name, strings.Join(known, ", "))
}

// readServers reads the servers of one config file; for ~/.claude.json
// the servers of the project at wd come first.
func readServers(path, wd string) (map[string]json.RawMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigSize {
		return nil, fmt.Errorf("larger than %d bytes", maxConfigSize)
	}
	var cf configFile
	if err := strictjson.Unmarshal(data, &cf); err != nil {
		return nil, err
	}
	servers := map[string]json.RawMessage{}
	for k, v := range cf.Servers {
		servers[k] = v
	}
	for k, v := range cf.MCPServers {
		servers[k] = v
	}
	if p, ok := cf.Projects[wd]; ok {
		for k, v := range p.MCPServers {
			servers[k] = v
		}
	}
	return servers, nil
}

// entryTarget turns a config entry into a target, expanding ${VAR}.
func entryTarget(raw json.RawMessage, env *environ) (*target, error) {
	var e serverEntry
	if err := strictjson.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	x := expander{env: env}
	t := &target{}
	if e.URL == "" {
		e.URL = e.ServerURL
	}
	switch {
	case e.URL != "":
		t.url = x.expand(e.URL)
		t.sse = e.Type == "sse"
		for _, k := range sortedKeys(e.Headers) {
			t.headers = append(t.headers, k+": "+x.expand(e.Headers[k]))
		}
	case e.Command != "":
		t.command = []string{x.expand(e.Command)}
		for _, a := range e.Args {
			t.command = append(t.command, x.expand(a))
		}
		for _, k := range sortedKeys(e.Env) {
			t.env = append(t.env, k+"="+x.expand(e.Env[k]))
		}
		t.cwd = x.expand(e.Cwd)
	default:
		return nil, errors.New("neither a command nor a url")
	}
	if x.err != nil {
		return nil, x.err
	}
	return t, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expander expands ${VAR}, ${VAR:-default} and ${env:VAR} (VS Code) from
// the environment; a variable without value and default is an error.
type expander struct {
	env *environ
	err error
}

func (x *expander) expand(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(x.lookup(s[i+2 : i+j]))
		s = s[i+j+1:]
	}
}

func (x *expander) lookup(expr string) string {
	name, def, hasDef := strings.Cut(expr, ":-")
	name = strings.TrimPrefix(name, "env:")
	if strings.HasPrefix(name, "input:") || strings.ContainsAny(name, ":") {
		if x.err == nil {
			x.err = fmt.Errorf("${%s}: only environment variables can be expanded", expr)
		}
		return ""
	}
	if v, ok := x.env.lookupEnv(name); ok && v != "" {
		return v
	}
	if hasDef {
		return def
	}
	if x.err == nil {
		x.err = fmt.Errorf("${%s}: the variable is not set", name)
	}
	return ""
}

// resolveTarget builds the target of a client verb from the first
// positional argument (URL or @NAME) or the command after "--".
func resolveTarget(env *environ, o *options, positional, command []string) (*target, []string, error) {
	var t *target
	switch {
	case len(command) > 0:
		t = &target{command: command}
	case len(positional) == 0:
		return nil, nil, usageError("no target: give a URL, @NAME, or -- COMMAND ARGS...")
	case strings.HasPrefix(positional[0], "@"):
		var err error
		if t, err = lookupServer(env, o.config, positional[0][1:]); err != nil {
			return nil, nil, err
		}
		positional = positional[1:]
	default:
		u, err := url.Parse(positional[0])
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, nil, usageError("target %q is neither an http(s) URL nor @NAME (a stdio server goes after --)", positional[0])
		}
		t = &target{url: positional[0]}
		positional = positional[1:]
	}
	for _, kv := range o.env {
		if !strings.Contains(kv, "=") {
			return nil, nil, usageError("-e %q: want KEY=VALUE", kv)
		}
	}
	for _, h := range o.headers {
		if name, _, ok := strings.Cut(h, ":"); !ok || strings.TrimSpace(name) == "" {
			return nil, nil, usageError("--header %q: want \"Name: Value\"", h)
		}
	}
	t.env = append(t.env, o.env...)
	t.headers = append(t.headers, o.headers...)
	if o.cwd != "" {
		t.cwd = o.cwd
	}
	if t.url == "" && len(t.headers) > 0 {
		return nil, nil, usageError("--header is for HTTP targets; a stdio server takes -e")
	}
	return t, positional, nil
}
