package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAS is an authorization server for tests. Its knobs are set before
// use; what clients sent is recorded.
type fakeAS struct {
	t      *testing.T
	srv    *httptest.Server
	issuer string
	md     AuthorizationServerMetadata
	// mdPaths are the paths serving the metadata (default: RFC 8414 root).
	mdPaths []string

	mu sync.Mutex
	// Knobs.
	metadataIssuer string // issuer in the document; default issuer
	issMode        string // "", "omit", "wrong", "slash"
	stateMode      string // "", "omit", "wrong"
	authError      string // error in the redirect instead of a code
	tokenError     string // OAuth error code of every token response
	tokenStatus    int    // status with tokenError (default 400)
	tokenDelay     time.Duration
	regStatus      int // non-zero: registration answers this with an error
	refreshTokens  bool
	expiresIn      int
	dpopNonce      string // when set, token requests need this DPoP nonce
	regAuthMethod  string // token_endpoint_auth_method in DCR responses
	withhold       string // a scope never granted
	tokenRedirect  string // the token endpoint redirects there
	// Records.
	requests     []string // "METHOD path" of every request
	authorizeQ   []url.Values
	tokenForms   []url.Values
	tokenHeaders []http.Header
	registered   []ClientMetadata
	codes        map[string]url.Values // code -> authorize query
	tokens       map[string]*issued    // access token -> grant
	refresh      map[string][]string   // refresh token -> scopes
	n            int
}

// issued is what the fake knows about an access token it issued.
type issued struct {
	scopes   []string
	jkt      string // DPoP key thumbprint, if bound
	resource string
	issuer   string
}

// newFakeAS starts a fake authorization server whose issuer is its URL
// plus path.
func newFakeAS(t *testing.T, path string) *fakeAS {
	as := &fakeAS{t: t, codes: map[string]url.Values{}, tokens: map[string]*issued{}, refresh: map[string][]string{}, expiresIn: 3600}
	as.srv = httptest.NewServer(http.HandlerFunc(as.serve))
	t.Cleanup(as.srv.Close)
	as.issuer = as.srv.URL + path
	as.md = AuthorizationServerMetadata{
		Issuer:                                     as.issuer,
		AuthorizationEndpoint:                      as.srv.URL + path + "/authorize",
		TokenEndpoint:                              as.srv.URL + path + "/token",
		RegistrationEndpoint:                       as.srv.URL + path + "/register",
		ResponseTypesSupported:                     []string{"code"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		TokenEndpointAuthMethodsSupported:          []string{"none", "client_secret_basic", "client_secret_post", "private_key_jwt"},
		AuthorizationResponseIssParameterSupported: true,
	}
	if path == "" {
		as.mdPaths = []string{"/.well-known/oauth-authorization-server"}
	} else {
		as.mdPaths = []string{"/.well-known/oauth-authorization-server" + path}
	}
	return as
}

func (as *fakeAS) record(r *http.Request) {
	as.mu.Lock()
	as.requests = append(as.requests, r.Method+" "+r.URL.Path)
	as.mu.Unlock()
}

func (as *fakeAS) count(prefix string) int {
	as.mu.Lock()
	defer as.mu.Unlock()
	n := 0
	for _, r := range as.requests {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

func (as *fakeAS) serve(w http.ResponseWriter, r *http.Request) {
	as.record(r)
	p := strings.TrimPrefix(r.URL.Path, strings.TrimPrefix(as.issuer, as.srv.URL))
	switch {
	case slices.Contains(as.mdPaths, r.URL.Path):
		as.mu.Lock()
		md := as.md
		if as.metadataIssuer != "" {
			md.Issuer = as.metadataIssuer
		}
		as.mu.Unlock()
		writeJSON(w, 200, md)
	case p == "/authorize" && r.Method == http.MethodGet:
		as.authorize(w, r)
	case p == "/token" && r.Method == http.MethodPost:
		as.token(w, r)
	case p == "/register" && r.Method == http.MethodPost:
		as.register(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (as *fakeAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.authorizeQ = append(as.authorizeQ, q)
	as.n++
	code := fmt.Sprintf("code-%d", as.n)
	as.codes[code] = q
	red, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || red.Host == "" {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	rq := red.Query()
	if as.authError != "" {
		rq.Set("error", as.authError)
	} else {
		rq.Set("code", code)
	}
	switch as.stateMode {
	case "":
		rq.Set("state", q.Get("state"))
	case "wrong":
		rq.Set("state", "forged")
	}
	switch as.issMode {
	case "":
		rq.Set("iss", as.issuer)
	case "wrong":
		rq.Set("iss", "https://evil.example.com")
	case "slash":
		rq.Set("iss", as.issuer+"/")
	}
	red.RawQuery = rq.Encode()
	http.Redirect(w, r, red.String(), http.StatusFound)
}

func (as *fakeAS) register(w http.ResponseWriter, r *http.Request) {
	var md ClientMetadata
	if err := json.NewDecoder(r.Body).Decode(&md); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	as.registered = append(as.registered, md)
	if as.regStatus != 0 {
		writeJSON(w, as.regStatus, map[string]string{"error": "invalid_redirect_uri", "error_description": "redirect not allowed"})
		return
	}
	method := md.TokenEndpointAuthMethod
	if as.regAuthMethod != "" {
		method = as.regAuthMethod
	}
	resp := map[string]any{"client_id": fmt.Sprintf("dcr-%s-%d", as.srv.Listener.Addr(), len(as.registered)), "token_endpoint_auth_method": method}
	if method != "none" {
		resp["client_secret"] = "dcr-secret"
	}
	writeJSON(w, 201, resp)
}

func (as *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	as.mu.Lock()
	as.tokenForms = append(as.tokenForms, r.PostForm)
	as.tokenHeaders = append(as.tokenHeaders, r.Header.Clone())
	delay, tokErr, status, nonce, redirect := as.tokenDelay, as.tokenError, as.tokenStatus, as.dpopNonce, as.tokenRedirect
	as.mu.Unlock()
	if redirect != "" {
		http.Redirect(w, r, redirect, http.StatusTemporaryRedirect)
		return
	}
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if tokErr != "" {
		if status == 0 {
			status = 400
		}
		if status >= 500 {
			http.Error(w, "boom", status)
			return
		}
		writeJSON(w, status, map[string]string{"error": tokErr, "error_description": "refused by test"})
		return
	}
	jkt, ok := as.tokenDPoP(w, r, nonce)
	if !ok {
		return
	}
	f := r.PostForm
	var scopes []string
	as.mu.Lock()
	defer as.mu.Unlock()
	switch f.Get("grant_type") {
	case "authorization_code":
		q, ok := as.codes[f.Get("code")]
		delete(as.codes, f.Get("code"))
		if !ok || pkceChallengeS256(f.Get("code_verifier")) != q.Get("code_challenge") || f.Get("redirect_uri") != q.Get("redirect_uri") {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		scopes = strings.Fields(q.Get("scope"))
	case "refresh_token":
		s, ok := as.refresh[f.Get("refresh_token")]
		if !ok {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(as.refresh, f.Get("refresh_token"))
		scopes = s
	default:
		scopes = strings.Fields(f.Get("scope"))
	}
	scopes = slices.DeleteFunc(scopes, func(s string) bool { return s == as.withhold })
	as.n++
	tok := fmt.Sprintf("at-%d", as.n)
	as.tokens[tok] = &issued{scopes: scopes, jkt: jkt, resource: f.Get("resource"), issuer: as.issuer}
	resp := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": as.expiresIn, "scope": strings.Join(scopes, " ")}
	if jkt != "" {
		resp["token_type"] = "DPoP"
	}
	if as.refreshTokens {
		rt := fmt.Sprintf("rt-%d", as.n)
		as.refresh[rt] = scopes
		resp["refresh_token"] = rt
	}
	writeJSON(w, 200, resp)
}

// tokenDPoP checks the DPoP proof of a token request, if it has one, and
// returns the thumbprint of its key (empty without a proof). It reports
// false, having answered the request with an error, if the proof is
// invalid or lacks the nonce the server requires.
func (as *fakeAS) tokenDPoP(w http.ResponseWriter, r *http.Request, nonce string) (jkt string, ok bool) {
	proof := r.Header.Get("DPoP")
	if proof == "" {
		return "", true
	}
	jkt, gotNonce, err := verifyDPoPProof(proof, "POST", as.md.TokenEndpoint, "")
	if err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_dpop_proof", "error_description": err.Error()})
		return "", false
	}
	if nonce != "" && gotNonce != nonce {
		w.Header().Set("DPoP-Nonce", nonce)
		writeJSON(w, 400, map[string]string{"error": "use_dpop_nonce"})
		return "", false
	}
	return jkt, true
}

func (as *fakeAS) lookup(tok string) *issued {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.tokens[tok]
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fakeRS is an MCP server stand-in protected by tokens of its
// authorization servers: POST /mcp echoes the body when authorized.
type fakeRS struct {
	t   *testing.T
	srv *httptest.Server
	mu  sync.Mutex
	as  []*fakeAS // the authorization servers it trusts; PRM names the first
	// Knobs.
	prmPath        string   // "" means path-aware; "-" means none
	prmResource    string   // default the server URL
	scopesSup      []string // PRM scopes_supported
	challengeScope string   // scope in the 401 challenge
	needScope      func(r *http.Request) []string
	headerPRM      bool // name the PRM URL in the challenge (default true)
	dpop           bool // challenge with DPoP
	dpopNonce      string
	// Records.
	requests []string
	authz    []string // Authorization header of each POST /mcp
	bodies   []string
	jtis     map[string]bool
}

func newFakeRS(t *testing.T, as ...*fakeAS) *fakeRS {
	rs := &fakeRS{t: t, as: as, headerPRM: true, jtis: map[string]bool{}}
	rs.srv = httptest.NewServer(http.HandlerFunc(rs.serve))
	t.Cleanup(rs.srv.Close)
	return rs
}

func (rs *fakeRS) url() string { return rs.srv.URL + "/mcp" }

func (rs *fakeRS) prmURL() string {
	if rs.prmPath == "" {
		return rs.srv.URL + "/.well-known/oauth-protected-resource/mcp"
	}
	return rs.srv.URL + rs.prmPath
}

func (rs *fakeRS) serve(w http.ResponseWriter, r *http.Request) {
	rs.mu.Lock()
	rs.requests = append(rs.requests, r.Method+" "+r.URL.Path)
	rs.mu.Unlock()
	if r.Method == http.MethodGet && rs.prmPath != "-" && r.URL.Path == strings.TrimPrefix(rs.prmURL(), rs.srv.URL) {
		res := rs.prmResource
		if res == "" {
			res = rs.url()
		}
		rs.mu.Lock()
		prm := ProtectedResourceMetadata{Resource: res, AuthorizationServers: []string{rs.as[0].issuer}, ScopesSupported: rs.scopesSup}
		rs.mu.Unlock()
		writeJSON(w, 200, prm)
		return
	}
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	body := new(strings.Builder)
	fmt.Fprint(body, readAllString(r))
	authz := r.Header.Get("Authorization")
	rs.mu.Lock()
	rs.authz = append(rs.authz, authz)
	rs.bodies = append(rs.bodies, body.String())
	rs.mu.Unlock()
	scheme, tok, _ := strings.Cut(authz, " ")
	var info *issued
	rs.mu.Lock()
	servers := slices.Clone(rs.as)
	rs.mu.Unlock()
	for _, as := range servers {
		if i := as.lookup(tok); i != nil && i.issuer == servers[0].issuer {
			info = i
		}
	}
	if info == nil || info.resource != rs.url() && info.resource != rs.prmResource {
		rs.challenge(w, 401, "invalid_token", rs.challengeScope)
		return
	}
	if info.jkt != "" {
		if scheme != "DPoP" {
			rs.challenge(w, 401, "invalid_token", "")
			return
		}
		jkt, nonce, err := verifyDPoPProof(r.Header.Get("DPoP"), r.Method, rs.url(), tok)
		if err != nil || jkt != info.jkt {
			rs.challenge(w, 401, "invalid_dpop_proof", "")
			return
		}
		if rs.dpopNonce != "" && nonce != rs.dpopNonce {
			w.Header().Set("DPoP-Nonce", rs.dpopNonce)
			rs.challenge(w, 401, "use_dpop_nonce", "")
			return
		}
	} else if scheme != "Bearer" {
		rs.challenge(w, 401, "invalid_token", "")
		return
	}
	if rs.needScope != nil {
		need := rs.needScope(r)
		for _, s := range need {
			if !slices.Contains(info.scopes, s) {
				rs.challenge(w, 403, "insufficient_scope", strings.Join(need, " "))
				return
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, body.String())
}

func (rs *fakeRS) challenge(w http.ResponseWriter, status int, errCode, scope string) {
	scheme := "Bearer"
	if rs.dpop {
		scheme = "DPoP"
	}
	var parts []string
	if rs.headerPRM && rs.prmPath != "-" {
		parts = append(parts, fmt.Sprintf("resource_metadata=%q", rs.prmURL()))
	}
	if scope != "" {
		parts = append(parts, fmt.Sprintf("scope=%q", scope))
	}
	if status == 403 || errCode != "invalid_token" {
		parts = append(parts, fmt.Sprintf("error=%q", errCode))
	}
	w.Header().Set("WWW-Authenticate", strings.TrimSpace(scheme+" "+strings.Join(parts, ", ")))
	w.WriteHeader(status)
}

func readAllString(r *http.Request) string {
	b := new(strings.Builder)
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// verifyDPoPProof checks an ES256 DPoP proof and returns its key
// thumbprint and nonce.
func verifyDPoPProof(proof, htm, htu, token string) (jkt, nonce string, err error) {
	var header struct {
		Typ string            `json:"typ"`
		Alg string            `json:"alg"`
		JWK map[string]string `json:"jwk"`
	}
	var claims struct {
		JTI   string `json:"jti"`
		HTM   string `json:"htm"`
		HTU   string `json:"htu"`
		IAT   int64  `json:"iat"`
		ATH   string `json:"ath"`
		Nonce string `json:"nonce"`
	}
	pub, err := verifyES256(proof, &header, &claims, func() (*ecdsa.PublicKey, error) {
		return ecPublicKey(header.JWK)
	})
	if err != nil {
		return "", "", err
	}
	_ = pub
	if header.Typ != "dpop+jwt" || header.JWK["d"] != "" {
		return "", "", fmt.Errorf("bad header %+v", header)
	}
	if claims.HTM != htm || claims.HTU != htu || claims.JTI == "" || time.Since(time.Unix(claims.IAT, 0)).Abs() > time.Minute {
		return "", "", fmt.Errorf("bad claims %+v", claims)
	}
	if token != "" {
		sum := sha256.Sum256([]byte(token))
		if claims.ATH != base64.RawURLEncoding.EncodeToString(sum[:]) {
			return "", "", fmt.Errorf("bad ath")
		}
	}
	jkt, err = jwkThumbprint(header.JWK)
	return jkt, claims.Nonce, err
}

// verifyES256 verifies a compact JWS signed with ES256 by the key that key
// returns once header and claims are decoded.
func verifyES256(jws string, header, claims any, key func() (*ecdsa.PublicKey, error)) (*ecdsa.PublicKey, error) {
	parts := strings.Split(jws, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("not a compact JWS")
	}
	hb, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	cb, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	sig, err3 := base64.RawURLEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || len(sig) != 64 {
		return nil, fmt.Errorf("bad encoding")
	}
	var alg struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(hb, &alg) != nil || alg.Alg != "ES256" || json.Unmarshal(hb, header) != nil || json.Unmarshal(cb, claims) != nil {
		return nil, fmt.Errorf("bad header or claims")
	}
	pub, err := key()
	if err != nil {
		return nil, err
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return nil, fmt.Errorf("bad signature")
	}
	return pub, nil
}

func ecPublicKey(jwk map[string]string) (*ecdsa.PublicKey, error) {
	if jwk["kty"] != "EC" || jwk["crv"] != "P-256" {
		return nil, fmt.Errorf("not a P-256 key")
	}
	x, err1 := base64.RawURLEncoding.DecodeString(jwk["x"])
	y, err2 := base64.RawURLEncoding.DecodeString(jwk["y"])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("bad coordinates")
	}
	return &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}, nil
}

// headless is an AuthorizeFunc that follows the fake's redirect itself.
func headless(calls *int, mu *sync.Mutex) AuthorizeFunc {
	return func(ctx context.Context, authURL string) (string, string, string, error) {
		if mu != nil {
			mu.Lock()
			*calls++
			mu.Unlock()
		}
		hc := &http.Client{CheckRedirect: noRedirects}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		resp, err := hc.Do(req)
		if err != nil {
			return "", "", "", err
		}
		resp.Body.Close()
		loc, err := resp.Location()
		if err != nil {
			return "", "", "", fmt.Errorf("no redirect: %s", resp.Status)
		}
		q := loc.Query()
		if e := q.Get("error"); e != "" {
			return "", q.Get("state"), q.Get("iss"), &OAuthError{Code: e}
		}
		return q.Get("code"), q.Get("state"), q.Get("iss"), nil
	}
}

func httptestServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

// verifyES256Raw verifies an r||s signature over digest.
func verifyES256Raw(k *ecdsa.PublicKey, digest, sig []byte) (bool, error) {
	if !ecdsa.Verify(k, digest, new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return false, fmt.Errorf("bad signature")
	}
	return true, nil
}
