package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gomcp/sdk/auth"
)

// benchResource is the audience of the benchmark tokens.
const benchResource = "http://127.0.0.1/mcp"

// benchAS serves the metadata and JWKS of an authorization server with an
// ES256 and an RS256 key, and mints tokens with go-jose.
type benchAS struct {
	srv *httptest.Server
	es  *ecdsa.PrivateKey
	rs  *rsa.PrivateKey
}

var (
	benchKeysOnce sync.Once
	benchES       *ecdsa.PrivateKey
	benchRS       *rsa.PrivateKey
)

func newBenchAS(b *testing.B) *benchAS {
	benchKeysOnce.Do(func() {
		benchES, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		benchRS, _ = rsa.GenerateKey(rand.Reader, 2048)
	})
	es, rs := benchES, benchRS
	as := &benchAS{es: es, rs: rs}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"issuer": as.srv.URL, "jwks_uri": as.srv.URL + "/jwks"})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: es.Public(), KeyID: "es", Algorithm: "ES256", Use: "sig"},
			{Key: rs.Public(), KeyID: "rs", Algorithm: "RS256", Use: "sig"},
		}})
	})
	as.srv = httptest.NewServer(mux)
	b.Cleanup(as.srv.Close)
	return as
}

// mint returns a typical access token (RFC 9068 claims, two scopes).
func (as *benchAS) mint(b *testing.B, alg, sub string) string {
	key, kid := any(as.es), "es"
	if alg == "RS256" {
		key, kid = as.rs, "rs"
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: key},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now().Unix()
	payload, _ := json.Marshal(map[string]any{"iss": as.srv.URL, "sub": sub, "aud": benchResource, "client_id": "bench-client",
		"scope": "mcp:basic mcp:call", "iat": now, "nbf": now, "exp": now + 3600, "jti": "jti-" + sub})
	jws, err := s.Sign(payload)
	if err != nil {
		b.Fatal(err)
	}
	tok, _ := jws.CompactSerialize()
	return tok
}

func (as *benchAS) verifier(b *testing.B, cacheSize int) *auth.JWTVerifier {
	v, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{Issuer: as.srv.URL, Audience: benchResource, CacheSize: cacheSize})
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// bareCheck returns the bare signature check of token with the standard
// library: hash the signing input, decode the signature, verify.
func (as *benchAS) bareCheck(alg, token string) func() bool {
	i := strings.LastIndexByte(token, '.')
	input, sig := token[:i], token[i+1:]
	if alg == "RS256" {
		return func() bool {
			s, _ := base64.RawURLEncoding.DecodeString(sig)
			h := sha256.Sum256([]byte(input))
			return rsa.VerifyPKCS1v15(&as.rs.PublicKey, crypto.SHA256, h[:], s) == nil
		}
	}
	return func() bool {
		s, _ := base64.RawURLEncoding.DecodeString(sig)
		h := sha256.Sum256([]byte(input))
		r, ss := new(big.Int).SetBytes(s[:32]), new(big.Int).SetBytes(s[32:])
		return ecdsa.Verify(&as.es.PublicKey, h[:], r, ss)
	}
}

// interleave runs a and b n times each, alternating in bursts of a few
// calls so that both see the same machine load, and returns the time per
// call of a and the median over bursts of a's time minus b's time per
// call (robust to the preemptions of a shared machine).
func interleave(n int, a, b func()) (aNs, overheadNs float64) {
	const burst = 4
	var ta time.Duration
	diffs := make([]float64, 0, n/burst+1)
	for done := 0; done < n; done += burst {
		k := min(burst, n-done)
		t0 := time.Now()
		for range k {
			a()
		}
		t1 := time.Now()
		for range k {
			b()
		}
		t2 := time.Now()
		ta += t1.Sub(t0)
		diffs = append(diffs, float64(t1.Sub(t0)-t2.Sub(t1))/float64(k))
	}
	slices.Sort(diffs)
	return float64(ta.Nanoseconds()) / float64(n), diffs[len(diffs)/2]
}

// allocsPerCall returns the heap allocations of one call of f, averaged
// over n calls.
func allocsPerCall(n int, f func()) float64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		f()
	}
	runtime.ReadMemStats(&m1)
	return float64(m1.Mallocs-m0.Mallocs) / float64(n)
}

// BenchmarkAuthJWT measures access token verification.
//
// es256/ours and rs256/ours verify a JWT with the issuer's key already
// cached (the token cache off), and also time the bare signature check of
// the same token (crypto/ecdsa or crypto/rsa) for as many calls in the
// same run, reporting the difference as overhead-ns/op and
// overhead-allocs/op; the bare targets time that check alone.
// cached/ours verifies a token already verified (from the bounded token
// cache), cached/full the same token with the cache off.
func BenchmarkAuthJWT(b *testing.B) {
	ctx := context.Background()
	for _, alg := range []string{"ES256", "RS256"} {
		name := strings.ToLower(alg)
		b.Run(name+"/ours", func(b *testing.B) {
			as := newBenchAS(b)
			v := as.verifier(b, -1)
			tok := as.mint(b, alg, "alice")
			if _, err := v.VerifyToken(ctx, tok); err != nil {
				b.Fatal(err)
			}
			bare := as.bareCheck(alg, tok)
			if !bare() {
				b.Fatal("bare check failed")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := v.VerifyToken(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			_, overhead := interleave(b.N, func() { v.VerifyToken(ctx, tok) }, func() { bare() })
			oursAllocs := allocsPerCall(200, func() { v.VerifyToken(ctx, tok) })
			bareAllocs := allocsPerCall(200, func() { bare() })
			b.ReportMetric(overhead, "overhead-ns/op")
			b.ReportMetric(oursAllocs-bareAllocs, "overhead-allocs/op")
		})
		b.Run(name+"/bare", func(b *testing.B) {
			as := newBenchAS(b)
			bare := as.bareCheck(alg, as.mint(b, alg, "alice"))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if !bare() {
					b.Fatal("bare check failed")
				}
			}
		})
	}
	for _, target := range []string{"ours", "full"} {
		b.Run("cached/"+target, func(b *testing.B) {
			as := newBenchAS(b)
			size := 0
			if target == "full" {
				size = -1
			}
			v := as.verifier(b, size)
			tok := as.mint(b, "ES256", "alice")
			if _, err := v.VerifyToken(ctx, tok); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := v.VerifyToken(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// authTransport adds an Authorization header to every request. The
// requests are the load generator's own, made for one round trip, so the
// header is set in place rather than on a clone (which would add the
// clone's cost to the protected runs).
type authTransport struct {
	base  http.RoundTripper
	value []string
}

func (t authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r.Header["Authorization"] = t.value
	return t.base.RoundTrip(r)
}

// BenchmarkAuthHTTPLoad makes b.N tools/call over streamable HTTP from 64
// concurrent clients with the raw load generator, to our handler behind
// RequireBearerToken ("ours": a JWTVerifier with its token cache, one
// token per client, an endpoint scope and a per-tool scope, and in the
// legacy era sessions bound to their principal) and to the same handler
// without it ("unprotected"). "header" is the unprotected handler called
// with the same Authorization headers as "ours", which it ignores: ours
// minus header is what the middleware costs, header minus unprotected
// what carrying the token costs the HTTP client and server (in the legacy
// era that includes net/http's header map outgrowing its small form: the
// load generator sends eight header lines without the token, nine with
// it). cpu-ns/call is the CPU time of the process (load generator and
// server) per call.
func BenchmarkAuthHTTPLoad(b *testing.B) {
	for _, era := range Eras {
		for _, target := range []string{"ours", "unprotected", "header"} {
			b.Run(fmt.Sprintf("%s/c64/%s", era, target), func(b *testing.B) {
				benchAuthLoad(b, era, target, 64)
			})
		}
	}
}

// oursHandler returns our echo server's streamable HTTP handler in era,
// closed when b ends.
func oursHandler(b *testing.B, era Era) http.Handler {
	srv, err := Ours{}.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	h, err := srv.Handler(era)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func benchAuthLoad(b *testing.B, era Era, target string, clients int) {
	protect, sendTokens := target == "ours", target != "unprotected"
	ctx := context.Background()
	h := oursHandler(b, era)
	var as *benchAS
	if sendTokens {
		as = newBenchAS(b)
	}
	if protect {
		protect, err := auth.RequireBearerToken(as.verifier(b, 0), &auth.RequireBearerTokenOptions{
			ResourceMetadataURL: "http://127.0.0.1/.well-known/oauth-protected-resource/mcp",
			Scopes:              auth.ScopeRules{Endpoint: []string{"mcp:basic"}, Tools: map[string][]string{EchoTool: {"mcp:call"}}},
		})
		if err != nil {
			b.Fatal(err)
		}
		h = protect(h)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	base := newHTTPClient(clients)
	defer base.CloseIdleConnections()
	raws := make([]*RawClient, clients)
	for i := range raws {
		hc := base
		if sendTokens {
			hc = &http.Client{Transport: authTransport{base: base.Transport, value: []string{"Bearer " + as.mint(b, "ES256", fmt.Sprint("user", i))}}}
		}
		raws[i] = &RawClient{URL: ts.URL, HTTP: hc, Era: era}
		if err := raws[i].Start(ctx); err != nil {
			b.Fatal(err)
		}
		defer raws[i].Close()
	}
	call := func(w int) error { return raws[w].Call(ctx) }
	// Every token is verified (and cached) before the CPU time is read.
	if err := driveCalls(2*clients, clients, call); err != nil {
		b.Fatal(err)
	}
	cpu0, err := processCPU()
	if err != nil {
		b.Fatal(err)
	}
	runLoad(b, clients, call)
	cpu1, err := processCPU()
	if err != nil {
		b.Fatal(err)
	}
	// Client and server share this process: the CPU time per call of both
	// (runLoad's warm-up of 2×clients steady-state calls included), which
	// other processes on the machine inflate less than they do calls/s.
	b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/call")
}

// BenchmarkAuthHeaderParse is net/http's server reading the tools/call
// request of BenchmarkAuthHTTPLoad's load generator (http.ReadRequest on
// its bytes as sent), without and with the access token: what carrying
// the token costs the server before any middleware runs. In the legacy era
// the request without the token has eight header lines and the one with
// it nine, past which net/http's header map leaves its small form.
func BenchmarkAuthHeaderParse(b *testing.B) {
	for _, era := range Eras {
		for _, target := range []string{"token", "unprotected"} {
			b.Run(fmt.Sprintf("%s/%s", era, target), func(b *testing.B) {
				raw := capturedCall(b, era, target == "token")
				rd := strings.NewReader(raw)
				br := bufio.NewReader(rd)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					rd.Reset(raw)
					br.Reset(rd)
					if _, err := http.ReadRequest(br); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(strings.Count(raw[:strings.Index(raw, "\r\n\r\n")], "\r\n")), "header-lines")
			})
		}
	}
}

// capturedCall returns the bytes of a tools/call the load generator sends
// (with a token when withToken), as the server received them.
func capturedCall(b *testing.B, era Era, withToken bool) string {
	ctx := context.Background()
	h := oursHandler(b, era)
	var mu sync.Mutex
	var last []byte
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dump, err := httputil.DumpRequest(r, true)
		if err != nil {
			b.Error(err)
		}
		r.Body = io.NopCloser(bytes.NewReader(dump[bytes.Index(dump, []byte("\r\n\r\n"))+4:]))
		mu.Lock()
		last = dump
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	hc := newHTTPClient(1)
	defer hc.CloseIdleConnections()
	if withToken {
		as := newBenchAS(b)
		hc = &http.Client{Transport: authTransport{base: hc.Transport, value: []string{"Bearer " + as.mint(b, "ES256", "user0")}}}
	}
	raw := &RawClient{URL: ts.URL, HTTP: hc, Era: era}
	if err := raw.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	if err := raw.Call(ctx); err != nil {
		b.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !bytes.Contains(last, []byte(`"tools/call"`)) {
		b.Fatalf("captured %q, not a tools/call", last)
	}
	return string(last)
}
