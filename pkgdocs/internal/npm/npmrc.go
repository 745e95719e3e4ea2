// Package npm documents npm packages from their registry: .npmrc
// configuration (registries, scoped registries, nerf-dart credentials),
// version resolution (explicit, dist-tag, range, lockfile), the version
// tarball (README, docs/, examples/) and TypeScript declarations.
package npm

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// DefaultRegistry is npm's public registry.
const DefaultRegistry = "https://registry.npmjs.org/"

// ErrConfig reports an unusable .npmrc.
var ErrConfig = errors.New("npm configuration error")

// ParseNpmrc parses one .npmrc: ini "key = value" lines, ';' and '#'
// comment lines, quoted values, and ${VAR} / ${VAR?} expansion through
// getenv. "key[]" arrays and [sections] are ignored. A ${VAR} that is not
// set is an error naming the variable (never its would-be value).
func ParseNpmrc(data []byte, getenv func(string) (string, bool)) (map[string]string, error) {
	out := map[string]string{}
	inSection := false
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			inSection = true
			continue
		}
		if inSection {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok {
			v = "true"
		}
		if k == "" || strings.HasSuffix(k, "[]") {
			continue
		}
		v = unquote(v)
		var err error
		if k, err = expandEnv(k, getenv); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if v, err = expandEnv(v, getenv); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		out[k] = v
	}
	return out, nil
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		inner := v[1 : len(v)-1]
		if v[0] == '"' {
			inner = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(inner)
		}
		return inner
	}
	return v
}

var envRE = regexp.MustCompile(`(\\*)\$\{([^}?]+)(\?)?\}`)

func expandEnv(s string, getenv func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var missing string
	out := envRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := envRE.FindStringSubmatch(m)
		esc, name, optional := sub[1], sub[2], sub[3] == "?"
		if len(esc)%2 == 1 { // escaped: keep literally, minus one backslash
			return esc[1:] + m[len(esc):]
		}
		v, ok := getenv(name)
		if !ok && !optional {
			if missing == "" {
				missing = name
			}
			return m
		}
		return esc[:len(esc)/2] + v
	})
	if missing != "" {
		return "", fmt.Errorf("%w: environment variable %s is not set (referenced as ${%s} in .npmrc)", ErrConfig, missing, missing)
	}
	return out, nil
}

// Config is the merged npm configuration.
type Config struct {
	values map[string]string
	// Files lists the .npmrc files read, lowest priority first.
	Files []string
}

// LoadOptions says where to look for configuration.
type LoadOptions struct {
	ProjectPath string                      // nearest .npmrc at or above it wins over the user file
	Home        string                      // default os.UserHomeDir()
	Getenv      func(string) (string, bool) // default os.LookupEnv
	Environ     func() []string             // default os.Environ
}

// LoadConfig merges, in ascending priority: the global npmrc
// ($PREFIX/etc/npmrc), the user npmrc ($NPM_CONFIG_USERCONFIG or
// ~/.npmrc), the project npmrc (nearest at or above ProjectPath), and
// npm_config_* environment variables.
func LoadConfig(o LoadOptions) (*Config, error) {
	if o.Getenv == nil {
		o.Getenv = os.LookupEnv
	}
	if o.Environ == nil {
		o.Environ = os.Environ
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	env := func(k string) string { v, _ := o.Getenv(k); return v }
	c := &Config{values: map[string]string{"registry": DefaultRegistry}}
	var files []string
	if prefix := firstSet(env("npm_config_prefix"), env("NPM_CONFIG_PREFIX"), env("PREFIX")); prefix != "" {
		files = append(files, filepath.Join(prefix, "etc", "npmrc"))
	}
	if uc := firstSet(env("npm_config_userconfig"), env("NPM_CONFIG_USERCONFIG")); uc != "" {
		files = append(files, uc)
	} else if o.Home != "" {
		files = append(files, filepath.Join(o.Home, ".npmrc"))
	}
	if o.ProjectPath != "" {
		if p := nearestFile(o.ProjectPath, ".npmrc"); p != "" && !contains(files, p) {
			files = append(files, p)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		vals, err := ParseNpmrc(data, o.Getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for k, v := range vals {
			c.values[k] = v
		}
		c.Files = append(c.Files, f)
	}
	for _, kv := range o.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if len(k) > len("npm_config_") && strings.EqualFold(k[:len("npm_config_")], "npm_config_") {
			key := k[len("npm_config_"):]
			if !strings.HasPrefix(key, "_") && !strings.HasPrefix(key, "//") {
				key = strings.ToLower(strings.ReplaceAll(key, "_", "-"))
			}
			if key == "userconfig" || key == "prefix" {
				continue
			}
			c.values[key] = v
		}
	}
	return c, nil
}

// FromValues builds a Config from already-merged key/value pairs.
func FromValues(values map[string]string) *Config {
	c := &Config{values: map[string]string{"registry": DefaultRegistry}}
	for k, v := range values {
		c.values[k] = v
	}
	return c
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nearestFile returns the path of name in dir or its closest ancestor
// within the project (see ancestors).
func nearestFile(dir, name string) string {
	for _, d := range ancestors(dir) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// Registry returns the registry URL for a package name, honouring
// "@scope:registry". It always ends with a slash.
func (c *Config) Registry(name string) string {
	reg := c.values["registry"]
	if strings.HasPrefix(name, "@") {
		scope, _, _ := strings.Cut(name, "/")
		if r, ok := c.values[scope+":registry"]; ok && r != "" {
			reg = r
		}
	}
	if !strings.HasSuffix(reg, "/") {
		reg += "/"
	}
	return reg
}

// Auth returns the Authorization header value for a request to rawURL, and
// the .npmrc key it came from. Credentials are matched by the longest
// nerf-dart prefix ("//host[:port]/path/:_authToken"), walking up the URL's
// path like npm does; a token is never returned for another host.
func (c *Config) Auth(rawURL string) (header, key string) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", ""
	}
	p := u.EscapedPath()
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i+1]
	} else {
		p = "/"
	}
	for {
		nerf := "//" + u.Host + p
		if h, k := c.authAt(nerf); h != "" {
			return h, k
		}
		if p == "/" {
			break
		}
		p = p[:strings.LastIndexByte(strings.TrimSuffix(p, "/"), '/')+1]
	}
	// A bare _authToken applies to the default registry only.
	if tok := c.values["_authToken"]; tok != "" && sameOrigin(rawURL, c.values["registry"]) {
		return "Bearer " + tok, "_authToken"
	}
	return "", ""
}

func (c *Config) authAt(nerf string) (string, string) {
	if tok := c.values[nerf+":_authToken"]; tok != "" {
		return "Bearer " + tok, nerf + ":_authToken"
	}
	if a := c.values[nerf+":_auth"]; a != "" {
		return "Basic " + a, nerf + ":_auth"
	}
	user, pass := c.values[nerf+":username"], c.values[nerf+":_password"]
	if user != "" && pass != "" {
		dec, err := base64.StdEncoding.DecodeString(pass)
		if err == nil {
			return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+string(dec))), nerf + ":_password"
		}
	}
	return "", ""
}

// NerfDart returns the credential key prefix npm expects for a registry
// URL, e.g. "//npm.example.com/repo/".
func NerfDart(registry string) string {
	u, err := url.Parse(registry)
	if err != nil {
		return registry
	}
	p := u.EscapedPath()
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return "//" + u.Host + p
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Host == ub.Host && ua.Scheme == ub.Scheme
}

// registryOf returns the configured registry URL that is the longest prefix
// of u, or u's origin when none is.
func (c *Config) registryOf(u string) string {
	best := ""
	for k, v := range c.values {
		if k != "registry" && !strings.HasSuffix(k, ":registry") {
			continue
		}
		r := strings.TrimSuffix(v, "/") + "/"
		if strings.HasPrefix(u, r) && len(r) > len(best) {
			best = r
		}
	}
	if best != "" {
		return best
	}
	if pu, err := url.Parse(u); err == nil {
		return pu.Scheme + "://" + pu.Host + "/"
	}
	return u
}
