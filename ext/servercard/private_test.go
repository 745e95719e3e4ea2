package servercard

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// DenyPrivateNetworks refuses every address that is not public, after
// name resolution; other addresses pass.
func TestRefusePrivate(t *testing.T) {
	refused := []string{
		"127.0.0.1:80", "[::1]:443", "10.1.2.3:80", "172.16.0.1:80", "192.168.1.1:80",
		"169.254.169.254:80", "[fe80::1]:80", "0.0.0.0:80", "[::]:80", "100.64.0.1:80",
		"192.0.2.1:80", "198.18.0.1:80", "240.0.0.1:80", "[fd00::1]:80", "[::ffff:127.0.0.1]:80",
		"[64:ff9b::7f00:1]:80", "224.0.0.1:80",
	}
	for _, a := range refused {
		if err := refusePrivate("tcp", a, nil); !errors.Is(err, ErrURL) {
			t.Errorf("%s: err = %v, want ErrURL", a, err)
		}
	}
	for _, a := range []string{"93.184.215.14:443", "[2606:4700::1111]:443", "8.8.8.8:53"} {
		if err := refusePrivate("tcp", a, nil); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	if err := refusePrivate("tcp", "not an address", nil); !errors.Is(err, ErrURL) {
		t.Errorf("an unparsable address: err = %v", err)
	}
}

// A fetch with DenyPrivateNetworks does not reach a loopback server, even
// one the URL rules allow.
func TestFetchDenyPrivateNetworks(t *testing.T) {
	var reached atomic.Bool
	base := serveCard(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Store(true) }))
	_, err := Fetch(context.Background(), base+"/mcp/server-card", &FetchOptions{DenyPrivateNetworks: true})
	if !errors.Is(err, ErrURL) || reached.Load() {
		t.Fatalf("err = %v, reached %v; want ErrURL before any request", err, reached.Load())
	}
	_, err = Fetch(context.Background(), base+"/mcp/server-card", &FetchOptions{DenyPrivateNetworks: true, HTTPClient: http.DefaultClient})
	if err == nil {
		t.Fatal("DenyPrivateNetworks with an HTTPClient was accepted")
	}
}
