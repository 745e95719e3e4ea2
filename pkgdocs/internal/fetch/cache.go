package fetch

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Cache keeps responses across processes; cache.Disk implements it.
type Cache interface {
	Get(key string) ([]byte, bool)
	Put(key string, data []byte) error
}

// How long cached answers stay valid.
const (
	// MutableTTL bounds answers that change as packages are published:
	// version lists, dist-tags, "latest" documents.
	MutableTTL = 10 * time.Minute
	// NegativeTTL bounds "not found" answers.
	NegativeTTL = 2 * time.Minute
)

// SetCache makes c keep successful and not-found answers in cache:
// immutable artefacts (archives, per-version files) for good, everything
// else for MutableTTL, not-found for NegativeTTL. Transient failures are
// never kept. Call it before the first request.
func (c *Client) SetCache(cache Cache) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cache = cache
}

// ErrOffline reports a request an offline client would have to send.
var ErrOffline = errors.New("offline")

// SetOffline makes c answer from its cache and local files only: a request
// that would reach the network fails with ErrOffline. Call it before the
// first request.
func (c *Client) SetOffline(offline bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offline = offline
}

func (c *Client) isOffline() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offline
}

func (c *Client) cacheOf() Cache {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cache
}

var versionSegRE = regexp.MustCompile(`^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]*)?$`)

// Immutable reports a URL whose content never changes once published:
// archives, Go module files of one version, npm documents of one exact
// version, docs.rs JSON of one version.
func Immutable(u *url.URL) bool {
	p := u.Path
	switch {
	case strings.HasSuffix(p, ".tgz"), strings.HasSuffix(p, ".tar.gz"), strings.HasSuffix(p, ".zip"),
		strings.HasSuffix(p, ".whl"), strings.HasSuffix(p, ".crate"), path.Base(p) == "json.gz":
		return true
	case strings.Contains(p, "/@v/") && (strings.HasSuffix(p, ".info") || strings.HasSuffix(p, ".mod")):
		return true
	}
	return versionSegRE.MatchString(path.Base(p))
}

// cacheKey names a request in the cache: its URL and, when it carries
// credentials, a digest of them (never the credentials themselves), so a
// private answer is never served to another identity.
func cacheKey(u string, hdr http.Header, digest string) string {
	if digest != "" {
		return "digest " + digest // content-addressed: the caller verifies it
	}
	key := "GET " + u
	if a := hdr.Get("Authorization"); a != "" {
		sum := sha256.Sum256([]byte(a))
		key += " auth " + hex.EncodeToString(sum[:8])
	}
	return key
}

const entryMagic = "pkgdocs-http-v1\n"

// encodeEntry lays out a cache entry: magic, '+' (found) or '-' (not
// found), expiry in Unix seconds (0: never), the URL, then the body.
func encodeEntry(found bool, expires time.Time, u string, body []byte) []byte {
	mark := "-"
	if found {
		mark = "+"
	}
	exp := int64(0)
	if !expires.IsZero() {
		exp = expires.Unix()
	}
	return append([]byte(fmt.Sprintf("%s%s%d\n%s\n", entryMagic, mark, exp, u)), body...)
}

func decodeEntry(data []byte, now time.Time) (found bool, u string, body []byte, ok bool) {
	rest, okMagic := bytes.CutPrefix(data, []byte(entryMagic))
	if !okMagic || len(rest) < 2 {
		return false, "", nil, false
	}
	found = rest[0] == '+'
	line, rest, ok1 := bytes.Cut(rest[1:], []byte("\n"))
	urlLine, body, ok2 := bytes.Cut(rest, []byte("\n"))
	exp, err := strconv.ParseInt(string(line), 10, 64)
	if !ok1 || !ok2 || err != nil || exp != 0 && now.Unix() >= exp {
		return false, "", nil, false
	}
	return found, string(urlLine), body, true
}

// fromCache answers req from the cache, if it holds a valid entry.
func (c *Client) fromCache(cache Cache, u *url.URL, req Request) (resp *Response, hit bool, err error) {
	data, ok := cache.Get(cacheKey(u.String(), req.Header, req.Digest))
	if !ok {
		return nil, false, nil
	}
	found, final, body, ok := decodeEntry(data, c.now())
	if !ok {
		return nil, false, nil
	}
	if !found {
		return nil, true, &StatusError{URL: redacted(u), Code: http.StatusNotFound, Body: "(cached)"}
	}
	return &Response{URL: final, Header: http.Header{}, Body: body}, true, nil
}

// toCache keeps an answer: a success, or a not-found.
func (c *Client) toCache(cache Cache, u *url.URL, req Request, resp *Response, err error) {
	now := c.now()
	switch {
	case err == nil && req.Digest != "":
		if DigestMatches(resp.Body, req.Digest) { // a corrupt body is never kept
			_ = cache.Put(cacheKey(u.String(), req.Header, req.Digest), encodeEntry(true, time.Time{}, resp.URL, resp.Body))
		}
	case err == nil && Immutable(u):
		_ = cache.Put(cacheKey(u.String(), req.Header, req.Digest), encodeEntry(true, time.Time{}, resp.URL, resp.Body))
	case err == nil:
		_ = cache.Put(cacheKey(u.String(), req.Header, req.Digest), encodeEntry(true, now.Add(MutableTTL), resp.URL, resp.Body))
	case errors.Is(err, ErrNotFound):
		_ = cache.Put(cacheKey(u.String(), req.Header, req.Digest), encodeEntry(false, now.Add(NegativeTTL), redacted(u), nil))
	}
}

// DigestMatches reports whether body has the digest: SRI ("sha512-<base64>",
// several separated by spaces: any sha512 or sha256 one), "sha256:<hex>",
// or a bare sha1 hex digest (npm's shasum).
func DigestMatches(body []byte, digest string) bool {
	if hexSum, ok := strings.CutPrefix(digest, "sha256:"); ok {
		sum := sha256.Sum256(body)
		return strings.EqualFold(hex.EncodeToString(sum[:]), hexSum)
	}
	if len(digest) == 40 && !strings.Contains(digest, "-") {
		sum := sha1.Sum(body)
		return strings.EqualFold(hex.EncodeToString(sum[:]), digest)
	}
	for _, sri := range strings.Fields(digest) {
		algo, want, _ := strings.Cut(sri, "-")
		switch algo {
		case "sha512":
			sum := sha512.Sum512(body)
			return base64.StdEncoding.EncodeToString(sum[:]) == want
		case "sha256":
			sum := sha256.Sum256(body)
			return base64.StdEncoding.EncodeToString(sum[:]) == want
		}
	}
	return false
}
