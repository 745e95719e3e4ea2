package webhook

import (
	"errors"
	"fmt"
	"net/netip"
)

// ErrForbiddenAddress is the error (tested with errors.Is) of a delivery to
// an address that is not globally routable: loopback, private, link-local,
// unspecified, multicast, or any other block the IANA special-purpose
// address registries mark as not globally reachable. Such deliveries are
// refused before any connection is made, unless the Sender's
// InsecureAllowPrivateAndHTTP option is set.
var ErrForbiddenAddress = errors.New("webhook: address is not globally routable")

// specialBlock is a block of a special-purpose address registry.
type specialBlock struct {
	prefix netip.Prefix
	name   string
}

// forbiddenBlocks are the blocks of the IANA IPv4 and IPv6 special-purpose
// address registries that are not globally reachable, plus multicast and
// the IPv6 blocks that embed an IPv4 address without a rule to check it.
// IPv6 addresses outside 2000::/3 are refused before this list is read.
var forbiddenBlocks = []specialBlock{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
}

var (
	// globalUnicast6 is the only IPv6 block with globally routable unicast
	// addresses; everything outside it (::1, ::, fc00::/7, fe80::/10,
	// ff00::/8, 64:ff9b:1::/48, 100::/64, ...) is refused.
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	// nat64 is the well-known NAT64 prefix; an address in it reaches the
	// IPv4 address in its last four bytes, which is checked instead.
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
)

// checkGlobal returns nil if ip is globally routable, and otherwise an error
// wrapping ErrForbiddenAddress that names the block ip is in.
func checkGlobal(ip netip.Addr) error {
	if !ip.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrForbiddenAddress)
	}
	if ip.Zone() != "" {
		return fmt.Errorf("%w: %s has a zone", ErrForbiddenAddress, ip)
	}
	orig := ip
	ip = ip.Unmap() // an IPv4-mapped IPv6 address is its IPv4 address
	if ip.Is6() {
		if nat64.Contains(ip) {
			b := ip.As16()
			if err := checkGlobal(netip.AddrFrom4([4]byte(b[12:]))); err != nil {
				return fmt.Errorf("%s (NAT64): %w", orig, err)
			}
			return nil
		}
		if !globalUnicast6.Contains(ip) {
			return fmt.Errorf("%w: %s is outside 2000::/3 (loopback, unspecified, unique-local, link-local, multicast or reserved)", ErrForbiddenAddress, orig)
		}
	}
	for _, b := range forbiddenBlocks {
		if b.prefix.Contains(ip) {
			return fmt.Errorf("%w: %s is in %s (%s)", ErrForbiddenAddress, orig, b.prefix, b.name)
		}
	}
	return nil
}
