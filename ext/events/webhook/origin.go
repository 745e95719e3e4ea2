package webhook

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// allowedOriginKey is the context key that marks an attempt to a URL whose
// origin AllowOriginForTesting permitted.
type allowedOriginKey struct{}

// originOf returns the canonical origin of u: the scheme, the lowercased
// host and the port, explicit even when it is the scheme's default.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// AllowOriginForTesting permits callback URLs of one origin
// (scheme://host[:port], such as "http://127.0.0.1:4000") past the Sender's
// scheme and address checks for the rest of its life, so that a test or a
// conformance harness listening on loopback can be delivered to while every
// other URL stays checked. Redirects are still not followed. It is for
// tests only: a server must not let untrusted callers reach it.
func (s *Sender) AllowOriginForTesting(origin string) error {
	u, err := url.Parse(origin)
	switch {
	case err != nil:
		return fmt.Errorf("%w: origin: %w", ErrInvalidURL, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: origin %q: the scheme must be http or https", ErrInvalidURL, origin)
	case u.Hostname() == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%w: %q is not an origin (scheme://host[:port])", ErrInvalidURL, origin)
	}
	s.originsMu.Lock()
	defer s.originsMu.Unlock()
	if s.allowedOrigins == nil {
		s.allowedOrigins = make(map[string]bool)
	}
	s.allowedOrigins[originOf(u)] = true
	return nil
}

// originAllowed reports whether AllowOriginForTesting permitted u's origin.
func (s *Sender) originAllowed(u *url.URL) bool {
	s.originsMu.RLock()
	defer s.originsMu.RUnlock()
	return s.allowedOrigins[originOf(u)]
}

// withOrigin marks ctx for an attempt to u if its origin is permitted, so
// that resolving and dialing accept its addresses.
func (s *Sender) withOrigin(ctx context.Context, u *url.URL) context.Context {
	if s.originAllowed(u) {
		return context.WithValue(ctx, allowedOriginKey{}, true)
	}
	return ctx
}
