package servercard

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// privateClient is the HTTP client of FetchOptions.DenyPrivateNetworks,
// made once so that its connections are reused.
var privateClient = sync.OnceValue(func() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: refusePrivate}
	return &http.Client{Transport: &http.Transport{
		// No proxy: a proxy would connect on our behalf, past the check.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		IdleConnTimeout:       30 * time.Second,
		MaxIdleConns:          16,
		ForceAttemptHTTP2:     true,
	}}
})

// refusePrivate is a net.Dialer Control that refuses to connect to an
// address that is not public: loopback, private, link-local, unspecified
// or multicast. It sees the address after name resolution, so a public
// name that resolves to a private address is refused too.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot check the address %q: %w", ErrURL, address, err)
	}
	ip := ap.Addr().Unmap()
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || isSharedOrReserved(ip) {
		return fmt.Errorf("%w: %s is not a public address (FetchOptions.DenyPrivateNetworks)", ErrURL, ip)
	}
	return nil
}

// nonPublic are address ranges that netip's predicates do not cover:
// carrier-grade NAT, IETF protocol assignments, documentation,
// benchmarking and the reserved block, and IPv6 documentation and the
// NAT64 prefix (which maps to IPv4 addresses of any kind).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("64:ff9b::/96"),
}

func isSharedOrReserved(ip netip.Addr) bool {
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
