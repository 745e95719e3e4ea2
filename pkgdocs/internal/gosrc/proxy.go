// Package gosrc documents Go packages without running the go command: it
// resolves modules through the Go module proxy protocol (or the local module
// cache), reads the module zip in memory, selects files with go/build for a
// chosen GOOS/GOARCH, and extracts the API and examples with go/doc.
package gosrc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
)

// Sentinel errors callers test with errors.Is.
var (
	ErrNotFound       = errors.New("not found")
	ErrProxyDisabled  = errors.New("no usable module source")
	ErrNoGoFiles      = errors.New("no Go files")
	ErrVersionUnknown = errors.New("version not found")
)

// proxyEntry is one element of a GOPROXY list.
type proxyEntry struct {
	url         string // base URL, no trailing slash; "off" or "direct" for the keywords
	fallThrough bool   // '|' after it: fall through on any error, not only 404/410
}

// ParseGOPROXY splits a GOPROXY value: comma means "try the next on 404 or
// 410 only", pipe means "try the next on any error".
func ParseGOPROXY(v string) []proxyEntry {
	var out []proxyEntry
	for v != "" {
		i := strings.IndexAny(v, ",|")
		item, sep := v, byte(0)
		if i >= 0 {
			item, sep = v[:i], v[i]
			v = v[i+1:]
		} else {
			v = ""
		}
		item = strings.TrimRight(strings.TrimSpace(item), "/")
		if item == "" {
			continue
		}
		out = append(out, proxyEntry{url: item, fallThrough: sep == '|'})
	}
	return out
}

// Proxy reads the Go module proxy protocol from a GOPROXY list, with the
// local module cache download directory as an offline fallback.
type Proxy struct {
	client   *fetch.Client
	entries  []proxyEntry
	modCache string // $GOMODCACHE/cache/download, or ""
	modRoot  string // $GOMODCACHE, where modules are extracted, or ""
	noProxy  string // GONOPROXY/GOPRIVATE patterns
	offline  bool   // the module cache only, never the network
}

// ProxyConfig configures NewProxy.
type ProxyConfig struct {
	GOPROXY    string // default "https://proxy.golang.org,direct"
	GOMODCACHE string // module cache root; "" disables the offline source
	GONOPROXY  string // patterns of modules never fetched from a proxy (GOPRIVATE if empty)
	Offline    bool   // answer from the module cache only
}

// NewProxy returns a Proxy using client for HTTP.
func NewProxy(client *fetch.Client, cfg ProxyConfig) *Proxy {
	if cfg.GOPROXY == "" {
		cfg.GOPROXY = "https://proxy.golang.org,direct"
	}
	p := &Proxy{client: client, entries: ParseGOPROXY(cfg.GOPROXY), noProxy: cfg.GONOPROXY, offline: cfg.Offline}
	if cfg.GOMODCACHE != "" {
		p.modCache = filepath.Join(cfg.GOMODCACHE, "cache", "download")
		p.modRoot = cfg.GOMODCACHE
	}
	return p
}

// get fetches "<escaped module>/@v/<file>" (or "@latest") through the
// proxy list, then the module cache. It returns the body and the URL used.
func (p *Proxy) get(ctx context.Context, mod, file string, limit int64) ([]byte, string, error) {
	esc, err := module.EscapePath(mod)
	if err != nil {
		return nil, "", fmt.Errorf("invalid module path %q: %w", mod, err)
	}
	rel := esc + "/" + file
	// The files of one version never change: the module cache, when it
	// has them, answers before any network.
	if p.modCache != "" && strings.HasPrefix(file, "@v/") && file != "@v/list" {
		if resp, err := p.local(ctx, rel, limit); err == nil {
			return resp.Body, resp.URL, nil
		}
	}
	if p.offline {
		resp, err := p.local(ctx, rel, limit)
		if err != nil {
			return nil, "", fmt.Errorf("module %s: %s is not in the module cache and pkgdocs is offline: %w", mod, file, ErrNotFound)
		}
		return resp.Body, resp.URL, nil
	}
	var lastErr error
	useProxy := p.noProxy == "" || !module.MatchPrefixPatterns(p.noProxy, mod)
	if useProxy {
		for _, e := range p.entries {
			if e.url == "off" || e.url == "direct" {
				lastErr = fmt.Errorf("GOPROXY entry %q: %w (pkgdocs never runs version control tools; use a proxy or the module cache)", e.url, ErrProxyDisabled)
				break
			}
			resp, err := p.client.Do(ctx, fetch.Request{URL: e.url + "/" + rel, MaxBytes: limit})
			if err == nil {
				return resp.Body, resp.URL, nil
			}
			lastErr = err
			if errors.Is(err, fetch.ErrNotFound) || e.fallThrough {
				continue
			}
			break
		}
	}
	if p.modCache != "" {
		resp, err := p.local(ctx, rel, limit)
		if err == nil {
			return resp.Body, resp.URL, nil
		}
		if lastErr == nil {
			lastErr = err
		}
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("module %s: %w", mod, ErrProxyDisabled)
	}
	return nil, "", lastErr
}

// local reads a file of the module cache's download directory.
func (p *Proxy) local(ctx context.Context, rel string, limit int64) (*fetch.Response, error) {
	if p.modCache == "" {
		return nil, fmt.Errorf("no module cache: %w", ErrNotFound)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(p.modCache, filepath.FromSlash(rel)))}
	return p.client.Do(ctx, fetch.Request{URL: u.String(), MaxBytes: limit})
}

// List returns the known versions of mod, sorted by semver: the proxy's
// @v/list, else the versions the module cache holds.
func (p *Proxy) List(ctx context.Context, mod string) ([]string, error) {
	body, _, err := p.get(ctx, mod, "@v/list", 1<<20)
	if err != nil {
		if vs := p.extractedVersions(mod); len(vs) > 0 {
			return vs, nil
		}
		return nil, err
	}
	var vs []string
	for _, l := range strings.Split(string(body), "\n") {
		if f := strings.Fields(l); len(f) > 0 && semver.IsValid(f[0]) {
			vs = append(vs, f[0])
		}
	}
	semver.Sort(vs)
	return vs, nil
}

type info struct {
	Version string
}

// Info checks that mod@version exists and returns its canonical version.
func (p *Proxy) Info(ctx context.Context, mod, version string) (string, error) {
	ev, err := module.EscapeVersion(version)
	if err != nil {
		return "", fmt.Errorf("invalid version %q: %w", version, err)
	}
	body, _, err := p.get(ctx, mod, "@v/"+ev+".info", 1<<16)
	if err != nil {
		if _, ok := p.extractedDir(mod, version); ok && semver.IsValid(version) && semver.Canonical(version) == version {
			return version, nil // extracted, its download cache pruned
		}
		return "", err
	}
	var in info
	if err := json.Unmarshal(body, &in); err != nil || !semver.IsValid(in.Version) {
		return "", fmt.Errorf("module %s@%s: malformed .info from proxy", mod, version)
	}
	return in.Version, nil
}

// Zip downloads the module zip of mod@version.
func (p *Proxy) Zip(ctx context.Context, mod, version string, limit int64) ([]byte, string, error) {
	ev, err := module.EscapeVersion(version)
	if err != nil {
		return nil, "", fmt.Errorf("invalid version %q: %w", version, err)
	}
	return p.get(ctx, mod, "@v/"+ev+".zip", limit)
}

// nearestVersions returns up to three listed versions closest to want: the
// two below it and the one above, highest first.
func nearestVersions(list []string, want string) []string {
	if len(list) == 0 {
		return nil
	}
	if !semver.IsValid(want) {
		n := min(3, len(list))
		out := append([]string(nil), list[len(list)-n:]...)
		sort.Sort(sort.Reverse(sort.StringSlice(out)))
		return reverseSemver(out)
	}
	i := sort.Search(len(list), func(i int) bool { return semver.Compare(list[i], want) >= 0 })
	var out []string
	if i < len(list) {
		out = append(out, list[i])
	}
	for j := i - 1; j >= 0 && len(out) < 3; j-- {
		out = append(out, list[j])
	}
	return reverseSemver(out)
}

func reverseSemver(vs []string) []string {
	semver.Sort(vs)
	for i, j := 0, len(vs)-1; i < j; i, j = i+1, j-1 {
		vs[i], vs[j] = vs[j], vs[i]
	}
	return vs
}
