// Package fetch is the one HTTP client pkgdocs uses: per-host rate limits,
// retries with backoff that honour Retry-After, per-call deadlines, body-size
// limits, and file:// URLs for local caches.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// Options configures a Client. A nil *Options means defaults.
type Options struct {
	HTTPClient  *http.Client          // default: a client with a 30 s transport timeout
	UserAgent   string                // default: "pkgdocs-mcp (+https://github.com/gomcp/sdk)"
	Retries     int                   // extra attempts on 429/5xx/network errors; default 2, -1 for none
	BaseBackoff time.Duration         // first backoff; default 200 ms
	MaxWait     time.Duration         // longest single wait (Retry-After included); default 10 s
	Timeout     time.Duration         // per-call deadline when ctx has none; default 20 s
	MaxBytes    int64                 // default body limit; default 64 MiB
	HostRates   map[string]rate.Limit // requests per second per host
	DefaultRate rate.Limit            // for hosts not in HostRates; default 10/s
	// CountRequests, when set, is called for every HTTP attempt (tests count
	// cache hits with it).
	CountRequests func(method, url string)
	// Now is the clock for cache expiry; default time.Now.
	Now func() time.Time
}

// Client performs GET requests. It is safe for concurrent use.
type Client struct {
	opts     Options
	mu       sync.Mutex
	limiters map[string]*rate.Limiter
	cache    Cache // see SetCache
	offline  bool  // see SetOffline
}

func (c *Client) now() time.Time {
	if c.opts.Now != nil {
		return c.opts.Now()
	}
	return time.Now()
}

// New returns a Client configured by opts.
func New(opts *Options) *Client {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	}
	if o.UserAgent == "" {
		o.UserAgent = "pkgdocs-mcp (+https://github.com/gomcp/sdk)"
	}
	if o.Retries == 0 {
		o.Retries = 2
	} else if o.Retries < 0 {
		o.Retries = 0
	}
	if o.BaseBackoff == 0 {
		o.BaseBackoff = 200 * time.Millisecond
	}
	if o.MaxWait == 0 {
		o.MaxWait = 10 * time.Second
	}
	if o.Timeout == 0 {
		o.Timeout = 20 * time.Second
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 64 << 20
	}
	if o.DefaultRate == 0 {
		o.DefaultRate = 10
	}
	return &Client{opts: o, limiters: map[string]*rate.Limiter{}}
}

// Response is a successful answer.
type Response struct {
	URL    string
	Header http.Header
	Body   []byte
}

// Request describes one GET.
type Request struct {
	URL      string
	Header   http.Header // extra headers (Accept, Authorization, ...)
	MaxBytes int64       // 0 means the client default
	// Digest, when set, is the checksum the caller will verify the body
	// against ("sha512-…", "sha256:…"): the cache then keeps the body by
	// this digest, whatever URL served it.
	Digest string
}

// Get fetches url with the client defaults.
func (c *Client) Get(ctx context.Context, url string) (*Response, error) {
	return c.Do(ctx, Request{URL: url})
}

// Do performs req, retrying transient failures.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
	}
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, fmt.Errorf("fetch: bad URL: %w", err)
	}
	limit := req.MaxBytes
	if limit <= 0 {
		limit = c.opts.MaxBytes
	}
	if u.Scheme == "file" {
		return readFile(u, limit)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("fetch: unsupported URL scheme %q", u.Scheme)
	}
	cache := c.cacheOf()
	if cache == nil {
		return c.network(ctx, u, req, limit)
	}
	if resp, hit, err := c.fromCache(cache, u, req); hit && (resp == nil || int64(len(resp.Body)) <= limit) {
		return resp, err
	}
	resp, err := c.network(ctx, u, req, limit)
	c.toCache(cache, u, req, resp, err)
	return resp, err
}

// network performs req over HTTP, retrying transient failures.
func (c *Client) network(ctx context.Context, u *url.URL, req Request, limit int64) (*Response, error) {
	if c.isOffline() {
		return nil, fmt.Errorf("GET %s: %w: not in the local caches", redacted(u), ErrOffline)
	}
	var lastErr error
	for attempt := 0; attempt <= c.opts.Retries; attempt++ {
		if attempt > 0 {
			wait := c.backoff(attempt, lastErr)
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				return nil, lastErr
			}
			if err := sleep(ctx, wait); err != nil {
				return nil, fmt.Errorf("%w (while waiting to retry: %v)", lastErr, err)
			}
		}
		if err := c.limiter(u.Host).Wait(ctx); err != nil {
			if lastErr != nil {
				return nil, lastErr
			}
			return nil, fmt.Errorf("fetch %s: %w", redacted(u), err)
		}
		resp, err := c.once(ctx, u, req, limit)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if !IsTransient(err) || ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

func (c *Client) once(ctx context.Context, u *url.URL, req Request, limit int64) (*Response, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	for k, vs := range req.Header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	hr.Header.Set("User-Agent", c.opts.UserAgent)
	if c.opts.CountRequests != nil {
		c.opts.CountRequests(http.MethodGet, redacted(u))
	}
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", redacted(u), withoutUserInfo(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, &StatusError{
			URL:        redacted(u),
			Code:       resp.StatusCode,
			RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
			Body:       strings.TrimSpace(string(snippet)),
		}
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("fetch %s: %d bytes over the %d-byte limit: %w", redacted(u), resp.ContentLength, limit, ErrTooLarge)
	}
	var buf bytes.Buffer
	// The bytes read so far reach the answer's progress reporter, if any.
	body := progress.FromContext(ctx).Body(resp.Body, resp.ContentLength)
	n, err := io.Copy(&buf, io.LimitReader(body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: reading body: %w", redacted(u), err)
	}
	if n > limit {
		return nil, fmt.Errorf("fetch %s: body over the %d-byte limit: %w", redacted(u), limit, ErrTooLarge)
	}
	return &Response{URL: redacted(resp.Request.URL), Header: resp.Header, Body: buf.Bytes()}, nil
}

func (c *Client) limiter(host string) *rate.Limiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.limiters[host]
	if !ok {
		r, ok := c.opts.HostRates[host]
		if !ok {
			r = c.opts.DefaultRate
		}
		burst := int(r)
		if burst < 1 {
			burst = 1
		}
		l = rate.NewLimiter(r, burst)
		c.limiters[host] = l
	}
	return l
}

// backoff returns how long to wait before attempt (1-based retries),
// honouring Retry-After when the last error carried one.
func (c *Client) backoff(attempt int, last error) time.Duration {
	var se *StatusError
	if errors.As(last, &se) && se.RetryAfter > 0 {
		return min(se.RetryAfter, c.opts.MaxWait)
	}
	d := c.opts.BaseBackoff << (attempt - 1)
	d += time.Duration(rand.Int64N(int64(d)/2 + 1)) // jitter
	return min(d, c.opts.MaxWait)
}

// parseRetryAfter understands both delta-seconds and HTTP-date forms.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func readFile(u *url.URL, limit int64) (*Response, error) {
	f, err := os.Open(u.Path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &StatusError{URL: u.String(), Code: http.StatusNotFound}
		}
		return nil, fmt.Errorf("fetch: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("fetch %s: file over the %d-byte limit: %w", u, limit, ErrTooLarge)
	}
	return &Response{URL: u.String(), Header: http.Header{}, Body: data}, nil
}
