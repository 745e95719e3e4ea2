package pypi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
)

// Index is a package index: PyPI's JSON API, or a PEP 503/691 simple index
// such as a private one named by PIP_INDEX_URL. Credentials written in the
// index URL's user info (pip's convention) are kept apart from the URL and
// sent, as HTTP Basic auth, only to the index's own scheme, host and port:
// never to a file host elsewhere, and never printed.
type Index struct {
	base string // URL without credentials, ending in "/"
	auth string // Authorization header value, or ""
}

// ParseIndexURL splits an index URL into its address and credentials.
func ParseIndexURL(raw string) (*Index, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "file") || u.Host == "" && u.Scheme != "file" {
		return nil, fmt.Errorf("invalid index URL %q", redactURL(raw))
	}
	ix := &Index{}
	if u.User != nil {
		pass, _ := u.User.Password()
		ix.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass))
		u.User = nil
	}
	ix.base = strings.TrimSuffix(u.String(), "/") + "/"
	return ix, nil
}

// String returns the index address, without credentials.
func (ix *Index) String() string { return ix.base }

// header returns the headers for a request to u: credentials only when u
// is on the index's own origin.
func (ix *Index) header(u string, accept string) http.Header {
	h := http.Header{"Accept": {accept}}
	if ix.auth != "" && sameOrigin(u, ix.base) {
		h.Set("Authorization", ix.auth)
	}
	return h
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host)
}

// redactURL removes user info from a URL for messages.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = nil
		return u.String()
	}
	if i := strings.Index(raw, "@"); i >= 0 {
		if j := strings.Index(raw, "://"); j >= 0 && j < i {
			return raw[:j+3] + raw[i+1:]
		}
	}
	return raw
}

const simpleAccept = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"

// files lists a project's files from the simple index: PEP 691 JSON when
// the index speaks it, else the PEP 503 HTML page.
func (ix *Index) files(ctx context.Context, client *fetch.Client, project string) ([]distFile, error) {
	page := ix.base + url.PathEscape(project) + "/"
	resp, err := client.Do(ctx, fetch.Request{URL: page, Header: ix.header(page, simpleAccept), MaxBytes: 32 << 20})
	if err != nil {
		if errors.Is(err, fetch.ErrUnauthorized) {
			return nil, fmt.Errorf("%w: the index %s refused the request; put credentials in PIP_INDEX_URL (https://user:token@host/simple/)", err, ix.base)
		}
		return nil, err
	}
	var files []distFile
	if ct := resp.Header.Get("Content-Type"); strings.Contains(ct, "json") {
		files, err = parseSimpleJSON(resp.Body)
	} else {
		files = parseSimpleHTML(resp.Body)
	}
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", ix.base, err)
	}
	base, _ := url.Parse(page)
	for i := range files {
		if ref, err := url.Parse(files[i].URL); err == nil {
			abs := base.ResolveReference(ref)
			abs.User = nil // credentials never travel inside file URLs
			if frag := abs.Fragment; strings.HasPrefix(frag, "sha256=") && files[i].SHA256 == "" {
				files[i].SHA256 = strings.TrimPrefix(frag, "sha256=")
			}
			abs.Fragment = ""
			files[i].URL = abs.String()
		}
	}
	return files, nil
}

// parseSimpleJSON reads a PEP 691 project page.
func parseSimpleJSON(data []byte) ([]distFile, error) {
	var doc struct {
		Files []struct {
			Filename string            `json:"filename"`
			URL      string            `json:"url"`
			Hashes   map[string]string `json:"hashes"`
			Yanked   any               `json:"yanked"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("malformed simple index JSON: %w", err)
	}
	out := make([]distFile, 0, len(doc.Files))
	for _, f := range doc.Files {
		yanked := false
		switch y := f.Yanked.(type) {
		case bool:
			yanked = y
		case string:
			yanked = true
		}
		out = append(out, distFile{Filename: f.Filename, URL: f.URL, SHA256: f.Hashes["sha256"], Yanked: yanked})
	}
	return out, nil
}

var (
	anchorRE = regexp.MustCompile(`(?is)<a\s([^>]*)>(.*?)</a>`)
	hrefRE   = regexp.MustCompile(`(?is)\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))`)
	yankedRE = regexp.MustCompile(`(?i)\bdata-yanked\b`)
	tagsRE   = regexp.MustCompile(`<[^>]*>`)
)

// parseSimpleHTML reads a PEP 503 project page: one anchor per file.
func parseSimpleHTML(data []byte) []distFile {
	var out []distFile
	for _, m := range anchorRE.FindAllSubmatch(data, -1) {
		attrs := string(m[1])
		h := hrefRE.FindStringSubmatch(attrs)
		if h == nil {
			continue
		}
		href := html.UnescapeString(h[2] + h[3] + h[4])
		name := strings.TrimSpace(html.UnescapeString(tagsRE.ReplaceAllString(string(m[2]), "")))
		if name == "" {
			if u, err := url.Parse(href); err == nil {
				name = baseName(u.Path)
			}
		}
		out = append(out, distFile{Filename: name, URL: href, Yanked: yankedRE.MatchString(attrs)})
	}
	return out
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// fileVersion extracts the version from a wheel or sdist file name of
// project (normalised).
func fileVersion(filename, project string) string {
	lower := strings.ToLower(filename)
	if strings.HasSuffix(lower, ".whl") {
		parts := strings.Split(filename[:len(filename)-4], "-")
		if len(parts) >= 5 && Normalize(parts[0]) == project {
			return parts[1]
		}
		return ""
	}
	stem := ""
	for _, ext := range []string{".tar.gz", ".zip", ".tar.bz2", ".tgz"} {
		if strings.HasSuffix(lower, ext) {
			stem = filename[:len(filename)-len(ext)]
		}
	}
	for i := 0; i < len(stem); i++ {
		if stem[i] == '-' && Normalize(stem[:i]) == project {
			return stem[i+1:]
		}
	}
	return ""
}
