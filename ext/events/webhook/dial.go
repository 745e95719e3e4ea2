package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
)

// A Resolver looks up the addresses of a host name. *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrInvalidURL is the error (tested with errors.Is) of a callback URL that
// a Sender will not deliver to: not absolute https (http too with
// InsecureAllowPrivateAndHTTP), with user information, without a host, or
// naming a forbidden address. A server answers such a delivery.url with
// InvalidParams.
var ErrInvalidURL = errors.New("webhook: invalid callback URL")

// maxURLLength bounds the callback URLs a Sender accepts.
const maxURLLength = 2048

// CheckURL parses a callback URL and checks what can be checked without
// resolving it: the scheme is https (or http with
// InsecureAllowPrivateAndHTTP), there is a host and no user information,
// and a literal IP address is globally routable. A server calls it at
// subscribe time; every delivery checks the URL again, and resolves it.
func (s *Sender) CheckURL(raw string) (*url.URL, error) {
	if len(raw) > maxURLLength {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrInvalidURL, maxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	allowed := s.originAllowed(u)
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && (s.insecure || allowed):
	default:
		return nil, fmt.Errorf("%w: the scheme must be https, not %q", ErrInvalidURL, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: user information is not allowed", ErrInvalidURL)
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && !allowed {
		if err := s.checkAddr(context.Background(), ip); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
		}
	}
	return u, nil
}

// checkAddr returns nil if the Sender may connect to ip: always for an
// attempt to an origin AllowOriginForTesting permitted (marked in ctx).
func (s *Sender) checkAddr(ctx context.Context, ip netip.Addr) error {
	if allowed, _ := ctx.Value(allowedOriginKey{}).(bool); allowed {
		return nil
	}
	if s.insecure || (s.allowForTest != nil && s.allowForTest(ip)) {
		return nil
	}
	return checkGlobal(ip)
}

// resolve returns the addresses of host that the Sender may connect to,
// failing with an error wrapping ErrForbiddenAddress if there is none.
func (s *Sender) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := s.checkAddr(ctx, ip); err != nil {
			return nil, err
		}
		return []netip.Addr{ip}, nil
	}
	ips, err := s.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("webhook: resolving %s: %w", host, err)
	}
	allowed := make([]netip.Addr, 0, len(ips))
	var refused error
	for _, ip := range ips {
		if err := s.checkAddr(ctx, ip); err != nil {
			if refused == nil {
				refused = err
			}
			continue
		}
		allowed = append(allowed, ip.Unmap())
	}
	if len(allowed) == 0 {
		if refused == nil {
			refused = fmt.Errorf("%w: no address", ErrForbiddenAddress)
		}
		return nil, fmt.Errorf("webhook: %s: %w", host, refused)
	}
	return allowed, nil
}

// resolvedKey is the context key of the addresses an attempt checked.
type resolvedKey struct{}

// resolved is what an attempt checked before its request: the dial uses
// these addresses instead of resolving host again.
type resolved struct {
	host string
	ips  []netip.Addr
}

// dialContext connects to a checked address of addr's host, sending
// nothing that names the address: the TLS layer above uses the URL's host
// for SNI and certificate checks, and the request keeps its Host.
func (s *Sender) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("webhook: %w", err)
	}
	r, _ := ctx.Value(resolvedKey{}).(resolved)
	ips := r.ips
	if r.host != host || len(ips) == 0 {
		if ips, err = s.resolve(ctx, host); err != nil {
			return nil, err
		}
	}
	var first error
	for _, ip := range ips {
		c, err := s.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// control checks, as the socket connects, the address it connects to: the
// last line against a dial that did not go through resolve.
func (s *Sender) control(ctx context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrForbiddenAddress, address)
	}
	return s.checkAddr(ctx, ap.Addr())
}
