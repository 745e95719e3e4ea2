package mcp

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// DefaultMaxBodyBytes is the largest request body the HTTP handlers accept
// unless configured otherwise.
const DefaultMaxBodyBytes = 4 << 20

// HTTP header names used by the MCP HTTP transports.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
	headerParamPrefix     = "Mcp-Param-"
	headerLastEventID     = "Last-Event-Id"
)

// Media types.
const (
	mediaJSON = "application/json"
	mediaSSE  = "text/event-stream"
)

// Preallocated header values, assigned directly to a response's header map
// on hot paths. net/http only reads them.
var (
	hdrJSON     = []string{mediaJSON}
	hdrSSE      = []string{mediaSSE}
	hdrNoCache  = []string{"no-cache"}
	hdrNoBuffer = []string{"no"}
)

// An originPolicy decides which Host and Origin headers an HTTP handler
// accepts, to defeat DNS rebinding and cross-site requests.
type originPolicy struct {
	anyHost   bool
	hosts     map[string]bool // lower-case host names, without port
	origins   map[string]bool // exact origins, "scheme://host[:port]", lower-case
	anyOrigin bool
}

// newOriginPolicy builds the policy for allowedHosts and allowedOrigins.
// With no allowed hosts, only loopback names (localhost, 127.0.0.1, ::1)
// are accepted. The host "*" accepts every host.
func newOriginPolicy(allowedHosts, allowedOrigins []string) *originPolicy {
	p := &originPolicy{hosts: map[string]bool{}, origins: map[string]bool{}}
	if len(allowedHosts) == 0 {
		allowedHosts = []string{"localhost", "127.0.0.1", "::1"}
	}
	for _, h := range allowedHosts {
		if h == "*" {
			p.anyHost = true
			continue
		}
		p.hosts[strings.ToLower(stripPort(h))] = true
	}
	for _, o := range allowedOrigins {
		if o == "*" {
			p.anyOrigin = true
			continue
		}
		p.origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	return p
}

// stripPort removes a port from host, and the brackets of an IPv6 literal.
func stripPort(host string) string {
	if strings.IndexByte(host, ':') < 0 {
		return host // no port: skip SplitHostPort, whose error allocates
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// checkHost reports whether the request's Host header is allowed.
func (p *originPolicy) checkHost(host string) bool {
	if p.anyHost {
		return true
	}
	h := strings.ToLower(stripPort(host))
	if p.hosts[h] {
		return true
	}
	// Subdomains of localhost resolve to loopback (RFC 6761).
	return p.hosts["localhost"] && strings.HasSuffix(h, ".localhost")
}

// checkOrigin reports whether the request's Origin header, if any, is
// allowed: absent, the origin of the request's own host, or listed.
func (p *originPolicy) checkOrigin(origin, host string) bool {
	if origin == "" || p.anyOrigin {
		return true
	}
	lower := strings.ToLower(origin)
	if p.origins[lower] {
		return true
	}
	u, err := url.Parse(lower)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // includes "null"
	}
	return sameHostPort(u, strings.ToLower(host))
}

// sameHostPort reports whether the origin u names host (host[:port]),
// filling in the default port of u's scheme.
func sameHostPort(u *url.URL, host string) bool {
	oh, op := u.Hostname(), u.Port()
	if op == "" {
		op = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	hh, hp, err := net.SplitHostPort(host)
	if err != nil {
		hh, hp = stripPort(host), ""
	}
	if hh != oh {
		return false
	}
	return hp == "" || hp == op
}

// checkRequest applies the Host and Origin checks and answers 403 when one
// fails. It reports whether the request may go on.
func (p *originPolicy) checkRequest(w http.ResponseWriter, r *http.Request) bool {
	if !p.checkHost(r.Host) {
		writeHTTPError(w, http.StatusForbidden, CodeInvalidRequest, "forbidden: Host "+strconv.Quote(r.Host)+" is not allowed")
		return false
	}
	if origin := headerValue(r.Header, "Origin"); !p.checkOrigin(origin, r.Host) {
		writeHTTPError(w, http.StatusForbidden, CodeInvalidRequest, "forbidden: Origin "+strconv.Quote(origin)+" is not allowed")
		return false
	}
	return true
}

// isJSONContentType reports whether a Content-Type header names JSON.
func isJSONContentType(ct string) bool {
	if ct == mediaJSON {
		return true
	}
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), mediaJSON)
}

// acceptSet records which response types an Accept header allows.
type acceptSet struct{ json, sse bool }

// parseAccept reads the Accept header lines. Wildcards count; q=0 excludes.
func parseAccept(values []string) acceptSet {
	var a acceptSet
	for _, v := range values {
		if v == "application/json, text/event-stream" || v == "text/event-stream, application/json" {
			return acceptSet{json: true, sse: true}
		}
		for part := range strings.SplitSeq(v, ",") {
			typ, params, _ := strings.Cut(part, ";")
			if rejectsQ(params) {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(typ)) {
			case "*/*":
				a.json, a.sse = true, true
			case mediaJSON, "application/*":
				a.json = true
			case mediaSSE, "text/*":
				a.sse = true
			}
		}
	}
	return a
}

// rejectsQ reports whether media-type parameters carry q=0.
func rejectsQ(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
				return true
			}
		}
	}
	return false
}

// errBodyTooLarge reports a request body over the limit.
var errBodyTooLarge = errors.New("request body too large")

// bodyPool recycles request body buffers.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

const maxPooledBody = 64 << 10

// readBody reads r's body, up to max bytes, into a pooled buffer that the
// caller returns with putBody. It fails with errBodyTooLarge when the body is
// longer.
func readBody(r *http.Request, max int64) (*[]byte, error) {
	if r.ContentLength > max {
		return nil, errBodyTooLarge
	}
	bp := bodyPool.Get().(*[]byte)
	b := (*bp)[:0]
	if n := r.ContentLength; n > int64(cap(b)) {
		b = make([]byte, 0, n+1)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			*bp = b
			putBody(bp)
			return nil, errBodyTooLarge
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			*bp = b
			putBody(bp)
			return nil, err
		}
	}
	*bp = b
	return bp, nil
}

func putBody(bp *[]byte) {
	if bp != nil && cap(*bp) <= maxPooledBody {
		*bp = (*bp)[:0]
		bodyPool.Put(bp)
	}
}

// writeHTTPError answers with status and a JSON-RPC error response that
// has no id, as the transports specify for errors outside any request.
// A failed write means the client is gone: there is no one to tell.
func writeHTTPError(w http.ResponseWriter, status int, code ErrorCode, msg string) {
	_ = writeJSONResponse(w, status, &jsonrpc2.Response{Error: &jsonrpc2.Error{Code: code, Message: msg}})
}

// writeHTTPErrorResponse answers with status and the small error
// response resp. A failed write means the client is gone: there is no one
// to tell.
func writeHTTPErrorResponse(w http.ResponseWriter, status int, resp *jsonrpc2.Response) {
	_ = writeJSONResponse(w, status, resp)
}

// writeJSONResponse answers with status and msg encoded as JSON. Use
// writeJSONWithin for responses that may be large; small error answers
// fit the connection's buffers, so they need no write deadline.
func writeJSONResponse(w http.ResponseWriter, status int, msg jsonrpc2.Message) error {
	bp := bodyPool.Get().(*[]byte)
	b, err := jsonrpc2.AppendMessage((*bp)[:0], msg)
	if err != nil {
		status = http.StatusInternalServerError
		b = append(b[:0], `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"encoding response"}}`...)
	}
	w.Header()["Content-Type"] = hdrJSON
	if len(b) > largeBody {
		// net/http announces the length of small bodies itself; a large
		// one would be chunked, and its reader could not size its buffer.
		w.Header()["Content-Length"] = []string{strconv.Itoa(len(b))}
	}
	w.WriteHeader(status)
	_, werr := w.Write(b)
	*bp = b
	putBody(bp)
	return werr
}
