package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ReceiverDocumentPath is where an https origin declares, in
// {"receivers":["/hooks/"]}, the path prefixes under which it receives
// webhooks: a callback URL under one of them needs no challenge.
const ReceiverDocumentPath = "/.well-known/mcp-webhook-receiver.json"

// Limits of receiver documents: the body a Sender reads, the prefixes it
// keeps, how long it caches a document without Cache-Control (and at
// most), how long it remembers an origin without one, and how many origins
// it remembers.
const (
	maxReceiverDocument   = 16 << 10
	maxReceiverPrefixes   = 64
	receiverDocDefaultTTL = 5 * time.Minute
	receiverDocMaxTTL     = 24 * time.Hour
	receiverDocMissingTTL = time.Minute
	maxReceiverDocOrigins = 1024
)

// receiverDocument is the body of ReceiverDocumentPath.
type receiverDocument struct {
	Receivers []string `json:"receivers"`
}

// receiverDocCache remembers the receiver documents of origins.
type receiverDocCache struct {
	mu      sync.Mutex
	entries map[string]receiverDocEntry
}

// receiverDocEntry is one origin's document, or its absence (prefixes nil).
type receiverDocEntry struct {
	prefixes []string
	until    time.Time
}

// get returns origin's entry if it is still fresh at now.
func (c *receiverDocCache) get(origin string, now time.Time) (receiverDocEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[origin]
	if !ok || !now.Before(e.until) {
		return receiverDocEntry{}, false
	}
	return e, true
}

// put stores origin's entry, dropping expired entries, and then any, when
// the cache is full.
func (c *receiverDocCache) put(origin string, e receiverDocEntry, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[string]receiverDocEntry)
	}
	if _, ok := c.entries[origin]; !ok && len(c.entries) >= maxReceiverDocOrigins {
		for k, old := range c.entries {
			if !now.Before(old.until) {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < maxReceiverDocOrigins {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[origin] = e
}

// ReceiverDeclares reports whether the https origin of the callback URL
// raw declares raw's path in its receiver document
// (ReceiverDocumentPath), which then stands for the endpoint's consent
// instead of a challenge. The document is fetched like a delivery (the
// address checked, no redirect followed), read up to 16 KiB, and cached as
// its Cache-Control allows (no-store and no-cache: not at all; max-age: up
// to a day; none: 5 minutes); an origin without a valid document, or that
// could not be reached, is remembered for a minute. A URL with a "." or
// ".." path segment is never declared. An error is returned when the
// document could not be fetched (a network failure, a refused address),
// and false without one afterwards while that is remembered.
func (s *Sender) ReceiverDeclares(ctx context.Context, raw string) (bool, error) {
	u, err := s.CheckURL(raw)
	if err != nil {
		return false, err
	}
	if u.Scheme != "https" || hasDotSegment(u.Path) {
		return false, nil
	}
	origin := originOf(u)
	e, ok := s.receiverDocs.get(origin, s.now())
	if !ok {
		if e, err = s.fetchReceiverDocument(ctx, u); err != nil {
			return false, err
		}
	}
	for _, p := range e.prefixes {
		if strings.HasPrefix(u.Path, p) {
			return true, nil
		}
	}
	return false, nil
}

// hasDotSegment reports whether path has a "." or ".." segment.
func hasDotSegment(path string) bool {
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// fetchReceiverDocument GETs the receiver document of u's origin and
// caches what it finds. An origin that cannot be reached is remembered as
// having none, for receiverDocMissingTTL, so that subscribes naming it do
// not make a request each.
func (s *Sender) fetchReceiverDocument(ctx context.Context, u *url.URL) (receiverDocEntry, error) {
	e, store, err := s.getReceiverDocument(ctx, u)
	now := s.now()
	if err != nil {
		s.receiverDocs.put(originOf(u), receiverDocEntry{until: now.Add(receiverDocMissingTTL)}, now)
		return receiverDocEntry{}, fmt.Errorf("webhook: receiver document of %s: %w", u.Hostname(), err)
	}
	if store {
		s.receiverDocs.put(originOf(u), e, now)
	}
	return e, nil
}

// getReceiverDocument makes the GET of fetchReceiverDocument and returns
// the entry to cache, and false if the answer may not be stored.
func (s *Sender) getReceiverDocument(ctx context.Context, u *url.URL) (receiverDocEntry, bool, error) {
	ctx, cancel := context.WithTimeout(s.withOrigin(ctx, u), s.attemptTimeout)
	defer cancel()
	host := u.Hostname()
	ips, err := s.resolve(ctx, host)
	if err != nil {
		return receiverDocEntry{}, false, err
	}
	ctx = context.WithValue(ctx, resolvedKey{}, resolved{host: host, ips: ips})
	doc := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: ReceiverDocumentPath}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, doc.String(), nil)
	if err != nil {
		return receiverDocEntry{}, false, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	resp, err := s.transport.RoundTrip(req)
	if err != nil {
		return receiverDocEntry{}, false, err
	}
	defer resp.Body.Close()
	now := s.now()
	ttl, store := cacheLifetime(resp.Header.Get("Cache-Control"))
	e := receiverDocEntry{until: now.Add(ttl)}
	if resp.StatusCode == http.StatusOK {
		if prefixes, err := readReceiverDocument(resp.Body); err == nil {
			e.prefixes = prefixes
			return e, store, nil
		}
	} else {
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	}
	e.until = now.Add(min(ttl, receiverDocMissingTTL))
	return e, store, nil
}

// readReceiverDocument reads a receiver document: at most
// maxReceiverDocument bytes of {"receivers":[...]}, whose prefixes are
// absolute paths without dot segments (others are skipped).
func readReceiverDocument(r io.Reader) ([]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxReceiverDocument+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReceiverDocument {
		return nil, fmt.Errorf("longer than %d bytes", maxReceiverDocument)
	}
	var doc receiverDocument
	if err := strictjson.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var prefixes []string
	for _, p := range doc.Receivers {
		if strings.HasPrefix(p, "/") && !hasDotSegment(p) && len(prefixes) < maxReceiverPrefixes {
			prefixes = append(prefixes, p)
		}
	}
	if len(prefixes) == 0 {
		return nil, errors.New("no receivers")
	}
	return prefixes, nil
}

// cacheLifetime returns how long a response with the Cache-Control header
// cc may be cached, and false if it may not be stored at all.
func cacheLifetime(cc string) (time.Duration, bool) {
	ttl := receiverDocDefaultTTL
	for directive := range strings.SplitSeq(cc, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(directive), "=")
		switch strings.ToLower(name) {
		case "no-store", "no-cache":
			return 0, false
		case "max-age":
			secs, err := strconv.ParseInt(strings.Trim(value, `"`), 10, 64)
			if err != nil || secs <= 0 {
				return 0, false
			}
			ttl = time.Duration(min(secs, int64(receiverDocMaxTTL/time.Second))) * time.Second
		}
	}
	return ttl, true
}
