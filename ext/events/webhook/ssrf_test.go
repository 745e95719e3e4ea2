package webhook

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// TestSpecialPurposeAddresses: every not-globally-routable block of the
// IANA special-purpose registries is refused, in IPv4, IPv6, IPv4-mapped
// IPv6 and NAT64 forms; global addresses are not.
func TestSpecialPurposeAddresses(t *testing.T) {
	refused := []string{
		"0.0.0.0", "0.1.2.3", // this network, unspecified
		"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", // private
		"100.64.0.1",               // shared (CGN)
		"127.0.0.1", "127.255.0.9", // loopback
		"169.254.169.254",                                       // link-local (cloud metadata)
		"192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.5", // protocol assignments, documentation
		"192.88.99.1", "198.18.0.1", "198.19.255.1", // 6to4 relay, benchmarking
		"224.0.0.1", "239.255.255.250", // multicast
		"240.0.0.1", "255.255.255.255", // reserved, broadcast
		"::", "::1", // unspecified, loopback
		"fc00::1", "fd12:3456::1", // unique local
		"fe80::1", "fec0::1", // link-local, site-local
		"ff02::1", "ff0e::1", // multicast
		"100::1",               // discard-only
		"2001::1", "2001:2::1", // Teredo, benchmarking (IETF protocol assignments)
		"2001:db8::1", "3fff::1", // documentation
		"2002:7f00:1::1",                                                // 6to4
		"64:ff9b:1::1",                                                  // local-use NAT64
		"5f00::1",                                                       // SRv6 SIDs
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", // IPv4-mapped
		"::127.0.0.1",                       // IPv4-compatible (deprecated)
		"64:ff9b::a00:1", "64:ff9b::7f00:1", // NAT64 of private and loopback
		"fe80::1%eth0", // zoned
	}
	for _, a := range refused {
		if err := checkGlobal(netip.MustParseAddr(a)); !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("checkGlobal(%s) = %v, want ErrForbiddenAddress", a, err)
		}
	}
	allowed := []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "172.32.0.1", "100.128.0.1", "192.0.3.1",
		"2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"}
	for _, a := range allowed {
		if err := checkGlobal(netip.MustParseAddr(a)); err != nil {
			t.Errorf("checkGlobal(%s) = %v, want nil", a, err)
		}
	}
}

// TestDefaultSenderRefusesSpecialAddresses: the default Sender refuses
// plain http and every special-purpose address as a URL literal, before
// making any connection (the test endpoint on 127.0.0.1 gets nothing).
func TestDefaultSenderRefusesSpecialAddresses(t *testing.T) {
	e := newEndpoint(t, nil)
	s := testSender(t, e.srv, SenderOptions{})
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	urls := []string{
		e.srv.URL, // https://127.0.0.1:port
		"https://localhost" + port,
		"https://[::1]" + port,
		"https://10.0.0.1/hook", "https://172.16.5.4/hook", "https://192.168.0.10/hook",
		"https://169.254.169.254/latest/meta-data", "https://100.64.0.1/", "https://0.0.0.0" + port,
		"https://224.0.0.1/", "https://255.255.255.255/", "https://198.18.0.1/", "https://192.0.2.1/",
		"https://[fc00::1]/", "https://[fe80::1%25eth0]/", "https://[::ffff:127.0.0.1]" + port,
		"https://[::ffff:a00:1]/", "https://[64:ff9b::a9fe:a9fe]/", "https://[2001:db8::1]/", "https://[ff02::1]/", "https://[::]/",
		"http://example.com/hook", "ftp://example.com/", "https://user:pass@example.com/", "/relative", "https:///nohost",
	}
	resolver := &mapResolver{answers: map[string][][]netip.Addr{"localhost": {addrs("127.0.0.1", "::1")}}}
	s.resolver = resolver
	for _, u := range urls {
		_, err := s.Deliver(context.Background(), testDelivery(u, GenerateSecret()))
		if !errors.Is(err, ErrInvalidURL) && !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("Deliver to %s = %v, want a refusal", u, err)
		}
		if err := s.Challenge(context.Background(), u, "sub-1", []Secret{GenerateSecret()}); !errors.Is(err, ErrInvalidURL) && !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("Challenge to %s = %v, want a refusal", u, err)
		}
	}
	if n := e.count.Load(); n != 0 {
		t.Fatalf("%d requests reached 127.0.0.1", n)
	}
}

// TestResolvedPrivateAddressRefused: a name that resolves only to private
// addresses (through a custom resolver) is refused with
// connection_refused, and nothing is dialled.
func TestResolvedPrivateAddressRefused(t *testing.T) {
	e := newEndpoint(t, nil)
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	resolver := &mapResolver{answers: map[string][][]netip.Addr{
		"hooks.example.com":    {addrs("10.1.2.3", "192.168.7.7")},
		"loopback.example.com": {addrs("127.0.0.1")},
		"mapped.example.com":   {addrs("::ffff:127.0.0.1")},
		"meta.example.com":     {addrs("169.254.169.254", "fd00::1")},
	}}
	s := testSender(t, e.srv, SenderOptions{Resolver: resolver, MaxAttempts: 1})
	for _, host := range []string{"hooks.example.com", "loopback.example.com", "mapped.example.com", "meta.example.com"} {
		if _, err := s.CheckURL("https://" + host + port); err != nil {
			t.Fatalf("CheckURL(%s) = %v; a name is checked when it is resolved, at delivery", host, err)
		}
		_, err := s.Deliver(context.Background(), testDelivery("https://"+host+port+"/hook", GenerateSecret()))
		if !errors.Is(err, ErrForbiddenAddress) || CategoryOf(err) != CategoryConnectionRefused {
			t.Errorf("Deliver to %s = %v, want ErrForbiddenAddress as connection_refused", host, err)
		}
	}
	if n := e.count.Load(); n != 0 {
		t.Fatalf("%d requests reached the endpoint", n)
	}
}

// TestOriginalHostAndSNI: a Sender connects to the address it checked but
// sends the URL's host in Host and in the TLS server name, and verifies
// the certificate for that name.
func TestOriginalHostAndSNI(t *testing.T) {
	e := newEndpoint(t, nil)
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	resolver := &mapResolver{answers: map[string][][]netip.Addr{"example.com": {addrs("127.0.0.1")}}}
	s := testSender(t, e.srv, SenderOptions{Resolver: resolver, InsecureAllowPrivateAndHTTP: true})
	if _, err := s.Deliver(context.Background(), testDelivery("https://example.com"+port+"/hook", GenerateSecret())); err != nil {
		t.Fatal(err)
	}
	h := e.recorded()[0]
	if h.host != "example.com"+port || h.sni != "example.com" {
		t.Fatalf("Host %q, SNI %q; want the URL's host", h.host, h.sni)
	}
	// The test certificate is not valid for other names: the name, not the
	// address, is what TLS checks.
	resolver.answers["other.test"] = [][]netip.Addr{addrs("127.0.0.1")}
	_, err := s.Deliver(context.Background(), testDelivery("https://other.test"+port+"/hook", GenerateSecret()))
	if CategoryOf(err) != CategoryTLS {
		t.Fatalf("Deliver to a name the certificate does not hold = %v, want tls_error", err)
	}
}

// TestRebindingCheckedAtEveryDelivery: the address is resolved and checked
// again at every delivery, even while a connection to the previous
// address is open, so a name that turns private is refused.
func TestRebindingCheckedAtEveryDelivery(t *testing.T) {
	e := newEndpoint(t, nil)
	port := e.srv.URL[strings.LastIndex(e.srv.URL, ":"):]
	resolver := &mapResolver{answers: map[string][][]netip.Addr{
		"rebind.example.com": {addrs("127.0.0.1"), addrs("169.254.169.254")},
	}}
	s := testSender(t, e.srv, SenderOptions{Resolver: resolver, MaxAttempts: 1})
	s.allowForTest = loopbackOnly // 127.0.0.1 plays the public address
	url := "https://rebind.example.com" + port + "/hook"
	if _, err := s.Deliver(context.Background(), testDelivery(url, GenerateSecret())); err != nil {
		t.Fatalf("first delivery: %v", err)
	}
	_, err := s.Deliver(context.Background(), testDelivery(url, GenerateSecret()))
	if !errors.Is(err, ErrForbiddenAddress) || CategoryOf(err) != CategoryConnectionRefused {
		t.Fatalf("delivery after the name turned link-local = %v, want ErrForbiddenAddress", err)
	}
	if n, l := e.count.Load(), resolver.lookups.Load(); n != 1 || l != 2 {
		t.Fatalf("%d requests and %d lookups, want 1 and 2", n, l)
	}
}

// TestControlChecksTheSocketAddress: the dialer refuses a forbidden address
// even if something hands it one without resolving.
func TestControlChecksTheSocketAddress(t *testing.T) {
	s := NewSender(nil)
	for _, a := range []string{"127.0.0.1:443", "[::1]:443", "10.0.0.1:443", "[::ffff:169.254.169.254]:80"} {
		if err := s.control(context.Background(), "tcp", a, nil); !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("control(%s) = %v, want ErrForbiddenAddress", a, err)
		}
	}
	if err := s.control(context.Background(), "tcp", "8.8.8.8:443", nil); err != nil {
		t.Errorf("control(8.8.8.8:443) = %v", err)
	}
}
