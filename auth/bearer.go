package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gomcp/sdk/mcp"
)

// RequireBearerTokenOptions configure RequireBearerToken. A nil
// *RequireBearerTokenOptions means defaults: any valid token, no scopes,
// Bearer only.
type RequireBearerTokenOptions struct {
	// ResourceMetadataURL is the URL of the server's Protected Resource
	// Metadata document, sent in every challenge as resource_metadata so
	// that clients can discover the authorization server (default:
	// ProtectedResourceMetadataURL(Resource), when Resource is set).
	ResourceMetadataURL string
	// Resource is the endpoint's canonical URL. DPoP proofs must name it
	// in htu; without it, the URL the request was sent to (as its Host
	// header says) is used, so set it when DPoP is on.
	Resource string
	// Realm, if set, is sent as the realm of every challenge.
	Realm string
	// Scopes say which scopes each request needs. RequireBearerToken
	// copies them: later changes to the maps have no effect.
	Scopes ScopeRules
	// ScopeImplies, if set, reports whether a granted scope implies a
	// required one, for scope hierarchies ("files" implying "files:read").
	// Without it, scopes match exactly.
	ScopeImplies func(granted, required string) bool
	// DPoP, if set, accepts DPoP-bound tokens (RFC 9449). Without it,
	// requests with the DPoP scheme are refused; tokens bound to a key
	// (cnf.jkt) are always refused as bearer tokens.
	DPoP *DPoPOptions
	// Logger, if set, receives a line for each refused request and each
	// verifier failure; tokens are never logged. Without it, the causes of
	// 503 "token verification is unavailable" (an issuer whose metadata or
	// keys cannot be fetched, say) go to slog.Default, each distinct
	// cause once, so that a misconfiguration shows without flooding the
	// log.
	Logger *slog.Logger

	now func() time.Time // for tests
}

// RequireBearerToken returns HTTP middleware that lets a request through
// only with a valid access token, for a StreamableHTTPHandler or an
// SSEHTTPHandler. It returns an error, and no middleware, when the
// configuration cannot work: no verifier, a Resource that is not an
// absolute URL without a fragment (see CanonicalResourceURL), a
// ResourceMetadataURL that is not an absolute URL, or DPoP options it
// cannot honour. The token comes from the Authorization header (scheme
// Bearer, or DPoP when opts.DPoP is set); verify checks it, and the
// handlers behind the middleware read the result with
// TokenInfoFromContext.
//
// Refusals follow RFC 6750 and the MCP authorization specification:
//   - no token: 401 with a challenge naming resource_metadata (and the
//     endpoint's scopes, if any), without an error code (RFC 6750
//     section 3.1);
//   - a malformed Authorization header, several of them, a token in the
//     query string or an oversized header: 401 invalid_request;
//   - a token the verifier refuses: 401 invalid_token with a short
//     error_description; a verifier that cannot decide: 503;
//   - a token lacking scopes the request needs: 403 insufficient_scope
//     naming all of them, so that the client can step up;
//   - a legacy session id (Mcp-Session-Id, or the sessionId of an
//     HTTP+SSE session) used with the token of another principal than the
//     one that created the session: 404, as if the session did not exist.
//
// CORS preflight requests (OPTIONS with Origin and
// Access-Control-Request-Method), which browsers send without
// credentials, pass through unauthenticated, for CORS middleware inside
// this one to answer.
//
// Scopes that depend on what a POST asks for (ScopeRules other than
// Endpoint) are checked by the MCP handler behind the middleware
// (mcp.StreamableHTTPHandler or mcp.SSEHTTPHandler, in every protocol
// era) once it has decoded the body: the middleware hands it the check
// with mcp.WithAuthorize, and the body is read and decoded only once.
// When the token grants every scope the rules name (and no ScopeRules.Func
// may add others), what the request acts on does not matter and no check
// is handed on. Another handler behind the middleware sees only the
// endpoint's scopes enforced.
func RequireBearerToken(verify TokenVerifier, opts *RequireBearerTokenOptions) (func(http.Handler) http.Handler, error) {
	m, err := newMiddleware(verify, opts)
	if err != nil {
		return nil, err
	}
	return func(next http.Handler) http.Handler {
		return &bearerHandler{middleware: m, next: next}
	}, nil
}

// middleware is the configuration RequireBearerToken shares between the
// handlers it wraps.
type middleware struct {
	verify       TokenVerifier
	o            RequireBearerTokenOptions
	resource     string // canonical, or ""
	dpop         *dpopVerifier
	perOperation bool
	everyScope   []string // every scope a rule names; nil with ScopeRules.Func
	now          func() time.Time
	dpopAlgs     []string
	authorizeFn  mcp.AuthorizeFunc // m.authorize, made once
	unavailable  causeLog          // causes of 503 logged to slog.Default
}

func newMiddleware(verify TokenVerifier, opts *RequireBearerTokenOptions) (*middleware, error) {
	m := &middleware{verify: verify}
	if opts != nil {
		m.o = *opts
	}
	if verify == nil {
		return nil, errors.New("auth: RequireBearerToken needs a TokenVerifier")
	}
	m.now = m.o.now
	if m.now == nil {
		m.now = time.Now
	}
	if m.o.Resource != "" {
		c, err := CanonicalResourceURL(m.o.Resource)
		if err != nil {
			return nil, fmt.Errorf("auth: RequireBearerToken: Resource: %w", err)
		}
		m.resource = c
		if m.o.ResourceMetadataURL == "" {
			if m.o.ResourceMetadataURL, err = ProtectedResourceMetadataURL(c); err != nil {
				return nil, fmt.Errorf("auth: RequireBearerToken: Resource: %w", err)
			}
		}
	}
	if u := m.o.ResourceMetadataURL; u != "" {
		if pu, err := url.Parse(u); err != nil || pu.Scheme == "" || pu.Host == "" {
			return nil, fmt.Errorf("auth: RequireBearerToken: ResourceMetadataURL %q is not an absolute URL", u)
		}
	}
	if m.o.DPoP != nil {
		d, err := newDPoPVerifier(m.o.DPoP, m.now)
		if err != nil {
			return nil, fmt.Errorf("auth: RequireBearerToken: DPoP: %w", err)
		}
		m.dpop = d
		m.dpopAlgs = d.algs
	}
	m.o.Scopes = m.o.Scopes.clone()
	m.perOperation = m.o.Scopes.perOperation()
	m.everyScope = m.o.Scopes.every()
	m.authorizeFn = m.authorize
	return m, nil
}

// bearerHandler is the middleware around one handler.
type bearerHandler struct {
	*middleware
	next http.Handler
}

var _ http.Handler = (*bearerHandler)(nil)

// maxAuthorizationBytes bounds the Authorization header read.
const maxAuthorizationBytes = maxTokenBytes + 64

func (h *bearerHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != "" {
		h.next.ServeHTTP(w, r) // a CORS preflight never carries a token
		return
	}
	if r.URL.RawQuery != "" && strings.Contains(r.URL.RawQuery, "access_token") && r.URL.Query().Has("access_token") {
		h.refuse(w, r, http.StatusUnauthorized, "Bearer", "invalid_request", "access tokens are not accepted in the query string", nil)
		return
	}
	scheme, token, desc := parseAuthorization(r.Header)
	switch {
	case scheme == "" && desc == "":
		h.refuse(w, r, http.StatusUnauthorized, "", "", "", nil)
		return
	case desc != "":
		h.refuse(w, r, http.StatusUnauthorized, scheme, "invalid_request", desc, nil)
		return
	case scheme == "DPoP" && h.dpop == nil:
		h.refuse(w, r, http.StatusUnauthorized, "Bearer", "invalid_request", "the DPoP scheme is not accepted", nil)
		return
	case scheme == "Bearer" && h.dpop != nil && h.dpop.required:
		h.refuse(w, r, http.StatusUnauthorized, "DPoP", "invalid_token", "a DPoP-bound token is required", nil)
		return
	}
	var proof checkedProof
	if scheme == "DPoP" {
		htu := h.resource
		if htu == "" {
			htu = requestURL(r)
		}
		var derr *dpopError
		if proof, derr = h.dpop.verify(r, token, htu); derr != nil {
			h.refuseProof(w, r, derr)
			return
		}
	}
	ti, err := h.verify.VerifyToken(r.Context(), token)
	if err == nil && ti == nil {
		err = invalid("token refused")
	}
	if err != nil {
		err = redact(err, token)
		if errors.Is(err, ErrUnavailable) {
			if h.o.Logger == nil {
				h.unavailable.logOnce(r, err)
			}
			h.log(r, "token verification unavailable", err)
			w.Header().Set("Retry-After", "5")
			writeOAuthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "token verification is unavailable; retry later")
			return
		}
		h.log(r, "token refused", err)
		h.refuse(w, r, http.StatusUnauthorized, scheme, "invalid_token", description(err), nil)
		return
	}
	switch {
	case scheme == "Bearer" && ti.JKT != "":
		h.refuse(w, r, http.StatusUnauthorized, "DPoP", "invalid_token", "the token is bound to a key; present it with the DPoP scheme", nil)
		return
	case scheme == "DPoP" && ti.JKT == "":
		h.refuse(w, r, http.StatusUnauthorized, "DPoP", "invalid_token", "the token is not bound to a key; present it as a Bearer token", nil)
		return
	case scheme == "DPoP" && ti.JKT != proof.jkt:
		h.refuse(w, r, http.StatusUnauthorized, "DPoP", "invalid_token", "the DPoP proof key is not the key the token is bound to", nil)
		return
	}
	if scheme == "DPoP" {
		// Only now, with a good token bound to the proof's key, is the
		// proof recorded: nobody without a token fills the replay cache.
		if derr := h.dpop.checkReplay(r.Context(), proof); derr != nil {
			h.refuseProof(w, r, derr)
			return
		}
	}
	check, ok := h.checkScopes(w, r, scheme, ti)
	if !ok {
		return
	}
	h.serve(w, r, ti, check)
}

// refuseProof answers a refused DPoP proof: 401, or 503 with Retry-After
// when the replay cache cannot tell.
func (h *bearerHandler) refuseProof(w http.ResponseWriter, r *http.Request, derr *dpopError) {
	status := http.StatusUnauthorized
	if derr.busy {
		status = http.StatusServiceUnavailable
		w.Header().Set("Retry-After", "5")
	}
	h.refuse(w, r, status, "DPoP", derr.code, derr.desc, nil)
}

// checkScopes answers 403 and returns false if the token lacks a scope
// the request needs that the middleware can tell. check reports that the
// scopes of what a POST acts on remain to be checked by the MCP handler
// (authorize).
func (h *bearerHandler) checkScopes(w http.ResponseWriter, r *http.Request, scheme string, ti *TokenInfo) (check, ok bool) {
	sr := &h.o.Scopes
	if len(sr.Endpoint) == 0 && !h.perOperation {
		return false, true
	}
	if h.everyScope != nil && !missingScopes(ti.Scopes, h.everyScope, h.o.ScopeImplies) {
		// The token grants every scope a request can need: no need to
		// find out which ones this one needs.
		return false, true
	}
	if !missingScopes(ti.Scopes, sr.Endpoint, h.o.ScopeImplies) {
		return h.perOperation && r.Method == http.MethodPost, true
	}
	// Refused here whatever the body says; the challenge names what the
	// request needs as far as the middleware can tell: in 2026-07-28 the
	// Mcp-Method and Mcp-Name headers name the operation.
	var arr [4]string
	required := append(arr[:0], sr.Endpoint...)
	if h.perOperation && r.Method == http.MethodPost && isModern(r.Header) {
		if method, name, ok := headerOperation(r.Header); ok {
			required = sr.add(required, method, name)
		}
	}
	h.refuse(w, r, http.StatusForbidden, scheme, "insufficient_scope", "the token lacks scopes this request needs", required)
	return false, false
}

// authorize is the check of per-operation scopes that the MCP handler
// runs once it has decoded a POST (mcp.WithAuthorize): the token must
// grant the endpoint's scopes and those of every message in the POST. A
// refusal answers 403 insufficient_scope naming all of them.
func (m *middleware) authorize(ctx context.Context, req *mcp.AuthorizeRequest) error {
	ti := TokenInfoFromContext(ctx)
	if ti == nil {
		return errors.New("auth: no verified token in the request context")
	}
	sr := &m.o.Scopes
	var arr [4]string
	required := append(arr[:0], sr.Endpoint...)
	for _, msg := range req.Messages {
		required = sr.add(required, msg.Method, msg.Name)
	}
	if !missingScopes(ti.Scopes, required, m.o.ScopeImplies) {
		return nil
	}
	return &scopeRefusal{m: m, scheme: requestScheme(req.HTTPRequest), required: slices.Clone(required)}
}

// A scopeRefusal is the error of authorize: it answers the POST with 403
// insufficient_scope, as the middleware itself would.
type scopeRefusal struct {
	m        *middleware
	scheme   string
	required []string
}

var (
	_ error        = (*scopeRefusal)(nil)
	_ http.Handler = (*scopeRefusal)(nil)
)

func (e *scopeRefusal) Error() string {
	return "auth: the token lacks scopes this request needs: " + strings.Join(e.required, " ")
}

// ServeHTTP writes the refusal.
func (e *scopeRefusal) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := &bearerHandler{middleware: e.m}
	h.refuse(w, r, http.StatusForbidden, e.scheme, "insufficient_scope", "the token lacks scopes this request needs", e.required)
}

// requestScheme returns the scheme of the request's Authorization header,
// which the middleware has accepted: Bearer or DPoP.
func requestScheme(r *http.Request) string {
	if r != nil {
		if v := headerValue(r.Header, "Authorization"); len(v) >= 4 && strings.EqualFold(v[:4], "DPoP") {
			return "DPoP"
		}
	}
	return "Bearer"
}

// headerOperation returns the method and name of a 2026-07-28 request as
// its Mcp-Method and Mcp-Name headers say (which the MCP handler checks
// against the body).
func headerOperation(h http.Header) (method, name string, ok bool) {
	m := h["Mcp-Method"] // canonical keys, as Values reads them
	if len(m) != 1 {
		return "", "", false
	}
	switch n := h["Mcp-Name"]; len(n) {
	case 0:
		return m[0], "", true
	case 1:
		name, ok := decodeMcpName(n[0])
		return m[0], name, ok
	}
	return "", "", false
}

// decodeMcpName decodes an Mcp-Name header value: plain visible ASCII, or
// the base64 form "=?base64?...?=".
func decodeMcpName(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) >= len(prefix)+len(suffix) && v[:len(prefix)] == prefix && v[len(v)-len(suffix):] == suffix {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(prefix) : len(v)-len(suffix)])
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", false
		}
	}
	return v, true
}

// headerValue returns the first value of the header named by key, which
// must be in canonical form: it is h.Get(key) without canonicalizing key.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// isModern reports whether a request says it speaks protocol 2026-07-28 or
// later, whose request metadata headers the MCP handler verifies.
func isModern(h http.Header) bool {
	v := headerValue(h, "Mcp-Protocol-Version")
	return len(v) == len(mcp.Version20260728) && v >= mcp.Version20260728
}

// serve passes an authorized request on, with its TokenInfo in its
// context, and with check, the check of per-operation scopes for the MCP
// handler (mcp.WithAuthorize). Every request names the token's principal
// (mcp.PrincipalFromContext), a digest of its issuer, subject and client.
// A request that may belong to a legacy session (any but a 2026-07-28
// POST) names it as the session's owner (mcp.WithSessionOwner): the MCP
// handler binds a session to the owner of the request that created it and
// answers 404 to any other, on every instance that shares its session
// store. A 2026-07-28 POST has no session and names it as the principal
// alone (mcp.WithPrincipal).
func (h *bearerHandler) serve(w http.ResponseWriter, r *http.Request, ti *TokenInfo, check bool) {
	if h.dpop != nil && h.dpop.nonce != nil {
		w.Header().Set("DPoP-Nonce", h.dpop.nonce.Nonce())
	}
	session := r.Method != http.MethodPost || !isModern(r.Header)
	var authorize mcp.AuthorizeFunc
	if check {
		authorize = h.authorizeFn
	}
	h.next.ServeHTTP(w, withTokenInfo(r, ti, ti.sessionOwner(), session, authorize))
}

// parseAuthorization reads the Authorization header: its scheme (Bearer
// or DPoP, matched case-insensitively) and token. desc explains a
// malformed header; scheme and desc are both empty when there is none.
func parseAuthorization(h http.Header) (scheme, token, desc string) {
	vals := h["Authorization"] // the canonical key, as Values("Authorization") reads it
	switch {
	case len(vals) == 0:
		return "", "", ""
	case len(vals) > 1:
		return "Bearer", "", "several Authorization headers"
	}
	v := vals[0]
	if len(v) > maxAuthorizationBytes {
		return "Bearer", "", "Authorization header too large"
	}
	sp := strings.IndexByte(v, ' ')
	if sp < 0 {
		if strings.EqualFold(v, "Bearer") || strings.EqualFold(v, "DPoP") {
			return "Bearer", "", "empty token"
		}
		return "", "", ""
	}
	switch s := v[:sp]; {
	case strings.EqualFold(s, "Bearer"):
		scheme = "Bearer"
	case strings.EqualFold(s, "DPoP"):
		scheme = "DPoP"
	default:
		return "", "", "" // another scheme: no token of ours
	}
	token = strings.TrimLeft(v[sp+1:], " ")
	if token == "" {
		return scheme, "", "empty token"
	}
	if !isToken68(token) {
		return scheme, "", "malformed token (one token68 value expected)"
	}
	return scheme, token, ""
}

// isToken68 reports whether s is a token68 (RFC 9110 section 11.2), the
// syntax of bearer and DPoP tokens.
func isToken68(s string) bool {
	i := 0
	// Eight characters per step, without a branch per character: a JWT
	// is hundreds of them, checked on every request.
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		if token68Chars[b[0]]&token68Chars[b[1]]&token68Chars[b[2]]&token68Chars[b[3]]&
			token68Chars[b[4]]&token68Chars[b[5]]&token68Chars[b[6]]&token68Chars[b[7]] == 0 {
			break
		}
	}
	for i < len(s) && token68Chars[s[i]] != 0 {
		i++
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}

// token68Chars is 1 for the characters of a token68 before its trailing
// "=", 0 for the others.
var token68Chars = func() (t [256]byte) {
	for c := range 256 {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' {
			t[c] = 1
		}
	}
	return t
}()

// refuse answers status with the challenge(s) of the schemes in use.
// scheme is that of the request ("" when it had no token).
func (h *bearerHandler) refuse(w http.ResponseWriter, r *http.Request, status int, scheme, code, desc string, scopes []string) {
	if scopes == nil && status == http.StatusUnauthorized {
		scopes = h.o.Scopes.Endpoint
	}
	c := challenge{scheme: "Bearer", realm: h.o.Realm, errorCode: code, errorDescription: desc, scope: scopes, resourceMetadata: h.o.ResourceMetadataURL}
	hdr := w.Header()
	bearer := h.dpop == nil || !h.dpop.required
	dpop := h.dpop != nil
	switch {
	case scheme == "DPoP" && dpop, scheme == "Bearer" && !bearer:
		bearer = false
	case scheme == "Bearer", scheme == "DPoP":
		dpop = false
	}
	if bearer {
		hdr.Add("WWW-Authenticate", c.String())
	}
	if dpop {
		c.scheme, c.algs = "DPoP", h.dpopAlgs
		hdr.Add("WWW-Authenticate", c.String())
		if h.dpop.nonce != nil {
			hdr.Set("DPoP-Nonce", h.dpop.nonce.Nonce())
		}
	}
	if code == "" {
		// No credentials: RFC 6750 section 3.1 says no error code nor other
		// error information, in the challenge or the body.
		hdr.Set("Content-Type", "text/plain; charset=utf-8")
		hdr.Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		io.WriteString(w, "an access token is required\n")
		return
	}
	writeOAuthError(w, status, code, desc)
}

func (h *bearerHandler) log(r *http.Request, msg string, err error) {
	if h.o.Logger == nil {
		return
	}
	attrs := []any{"method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr}
	if err != nil {
		attrs = append(attrs, "error", err.Error())
	}
	h.o.Logger.Warn("auth: "+msg, attrs...)
}

// redact returns err with every occurrence of token in its text replaced,
// so that a verifier that quotes the token in its error does not make the
// middleware log or echo it.
func redact(err error, token string) error {
	if len(token) < 4 || !strings.Contains(err.Error(), token) {
		return err
	}
	return &redactedError{err: err, text: strings.ReplaceAll(err.Error(), token, "[token]"), desc: strings.ReplaceAll(description(err), token, "[token]")}
}

// redactedError is an error whose text had a token removed.
type redactedError struct {
	err        error
	text, desc string
}

var _ error = (*redactedError)(nil)

func (e *redactedError) Error() string { return e.text }

func (e *redactedError) Unwrap() error { return e.err }

// writeOAuthError writes an OAuth error response body (RFC 6749 section
// 5.2 shape) with status.
func writeOAuthError(w http.ResponseWriter, status int, code, desc string) {
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	var b strings.Builder
	b.WriteString(`{"error":"`)
	b.WriteString(sanitizeToken(code))
	b.WriteString(`","error_description":"`)
	b.WriteString(sanitizeDescription(desc))
	b.WriteString("\"}\n")
	w.Write([]byte(b.String()))
}
