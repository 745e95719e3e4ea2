package mcp

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Request metadata headers of protocol 2026-07-28 (transports/streamable-http,
// "Request Metadata"): the client mirrors parts of the body into headers
// for intermediaries, and the server rejects a request whose headers and
// body disagree, so that nothing routes on one value and runs on another.

// base64 sentinel of header values that are not plain ASCII.
const (
	sentinelPrefix = "=?base64?"
	sentinelSuffix = "?="
)

// errBadHeaderValue reports a header value with characters a header may not
// carry, or a malformed base64 sentinel.
var errBadHeaderValue = errors.New("invalid header value")

// decodeHeaderValue returns the value an Mcp-Name or Mcp-Param-* header
// carries: the decoded text of a "=?base64?...?=" value, or the value
// itself, which must be visible ASCII, space or tab.
func decodeHeaderValue(v string) (string, error) {
	if len(v) >= len(sentinelPrefix)+len(sentinelSuffix) && strings.HasPrefix(v, sentinelPrefix) && strings.HasSuffix(v, sentinelSuffix) {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(sentinelPrefix) : len(v)-len(sentinelSuffix)])
		if err != nil {
			return "", fmt.Errorf("%w: bad base64: %v", errBadHeaderValue, err)
		}
		if !utf8.Valid(b) {
			return "", fmt.Errorf("%w: base64 value is not UTF-8", errBadHeaderValue)
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", fmt.Errorf("%w: byte %#x", errBadHeaderValue, c)
		}
	}
	return v, nil
}

// encodeHeaderValue returns s as a header value: as is when it is plain,
// else in the base64 sentinel form. Empty values, values with leading or
// trailing whitespace, non-ASCII or control characters, and values that
// look like the sentinel are encoded.
func encodeHeaderValue(s string) string {
	plain := s != "" && s[0] != ' ' && s[len(s)-1] != ' ' &&
		!(strings.HasPrefix(s, sentinelPrefix) && strings.HasSuffix(s, sentinelSuffix))
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain {
		return s
	}
	return sentinelPrefix + base64.StdEncoding.EncodeToString([]byte(s)) + sentinelSuffix
}

func headerMismatch(id jsonrpc2.ID, format string, args ...any) *jsonrpc2.Response {
	return &jsonrpc2.Response{ID: id, Error: newError(CodeHeaderMismatch, "Header mismatch: "+format, args...)}
}

// singleHeader returns the one value of header key; several values are an
// error, since they could disagree.
func singleHeader(h http.Header, key string) (string, bool, error) {
	vs, ok := h[key] // a canonical key is found without canonicalizing it
	if !ok {
		vs = h.Values(key)
	}
	switch len(vs) {
	case 0:
		return "", false, nil
	case 1:
		return vs[0], true, nil
	}
	return "", true, fmt.Errorf("%s header given %d times", key, len(vs))
}

// checkModernHeaders validates the request metadata headers against the
// body, and returns the error response for the first disagreement.
func (h *StreamableHTTPHandler) checkModernHeaders(r *http.Request, req *jsonrpc2.Request, p *modernProbe, s *Server) *jsonrpc2.Response {
	hv, ok, err := singleHeader(r.Header, headerProtocolVersion)
	switch {
	case err != nil:
		return headerMismatch(req.ID, "%v", err)
	case !ok:
		return headerMismatch(req.ID, "missing required MCP-Protocol-Version header")
	case hv != p.version:
		return headerMismatch(req.ID, "MCP-Protocol-Version header value %q does not match body value %q", hv, p.version)
	}
	mv, ok, err := singleHeader(r.Header, headerMethod)
	switch {
	case err != nil:
		return headerMismatch(req.ID, "%v", err)
	case !ok:
		return headerMismatch(req.ID, "missing required Mcp-Method header")
	case mv != req.Method:
		return headerMismatch(req.ID, "Mcp-Method header value %q does not match body value %q", mv, req.Method)
	}
	want, present, needed := p.nameSource(req.Method)
	if !needed || !present {
		return nil // absent or not a string: the method's own decoding reports it
	}
	nv, ok, err := singleHeader(r.Header, headerName)
	if err == nil && ok {
		nv, err = decodeHeaderValue(nv)
	}
	switch {
	case err != nil:
		return headerMismatch(req.ID, "Mcp-Name: %v", err)
	case !ok:
		return headerMismatch(req.ID, "missing required Mcp-Name header")
	case nv != want:
		return headerMismatch(req.ID, "Mcp-Name header value %q does not match body value %q", nv, want)
	}
	if req.Method == MethodCallTool {
		if t, ok := s.tools.get(want); ok {
			return checkParamHeaders(r.Header, req.ID, h.bindings(t), p.arguments)
		}
	}
	return nil
}

// A headerBinding is a tool argument mirrored into an Mcp-Param-* header,
// declared with "x-mcp-header" in the tool's input schema.
type headerBinding struct {
	header string   // the {Name} of Mcp-Param-{Name}
	path   []string // property names from the schema root
}

// maxCachedBindings bounds the handler's cache of tool header bindings.
const maxCachedBindings = 4096

// bindings returns the header bindings of a tool, computed once per
// registered tool.
func (h *StreamableHTTPHandler) bindings(t *ServerTool) []headerBinding {
	if b, ok := h.bindingCache.Load(t); ok {
		return b.([]headerBinding)
	}
	b := schemaHeaderBindings(t.Tool.InputSchema)
	if h.bindingCount.Add(1) > maxCachedBindings {
		h.bindingCache.Clear()
		h.bindingCount.Store(1)
	}
	h.bindingCache.Store(t, b)
	return b
}

// schemaHeaderBindings finds the x-mcp-header annotations of an input
// schema that are reachable from its root through "properties" alone.
func schemaHeaderBindings(schema any) []headerBinding {
	raw, err := strictjson.Marshal(schema)
	if err != nil {
		return nil
	}
	var root map[string]any
	if strictjson.Unmarshal(raw, &root) != nil {
		return nil
	}
	var out []headerBinding
	var walk func(node map[string]any, path []string)
	walk = func(node map[string]any, path []string) {
		props, _ := node["properties"].(map[string]any)
		for name, v := range props {
			prop, ok := v.(map[string]any)
			if !ok {
				continue
			}
			p := append(slices.Clip(path), name)
			if hn, ok := prop["x-mcp-header"].(string); ok && hn != "" {
				out = append(out, headerBinding{header: hn, path: p})
			}
			walk(prop, p)
		}
	}
	walk(root, nil)
	return out
}

// checkParamHeaders compares each bound argument with its header.
func checkParamHeaders(hdr http.Header, id jsonrpc2.ID, bindings []headerBinding, args []byte) *jsonrpc2.Response {
	for _, b := range bindings {
		key := headerParamPrefix + b.header
		hv, present, err := singleHeader(hdr, key)
		if err == nil && present {
			hv, err = decodeHeaderValue(hv)
		}
		if err != nil {
			return headerMismatch(id, "%s: %v", key, err)
		}
		val, has := valueAt(args, b.path)
		switch {
		case !has && present:
			return headerMismatch(id, "%s header given but argument %q is absent", key, strings.Join(b.path, "."))
		case !has:
			continue
		case !present:
			return headerMismatch(id, "missing %s header for argument %q", key, strings.Join(b.path, "."))
		case !headerMatches(hv, val):
			return headerMismatch(id, "%s header value %q does not match body value %s", key, hv, val)
		}
	}
	return nil
}

// valueAt returns the value at path in the JSON object args; absent and
// null values are reported as absent.
func valueAt(args []byte, path []string) (jsontext.Value, bool) {
	v := jsontext.Value(args)
	for _, name := range path {
		if v.Kind() != '{' {
			return nil, false
		}
		var obj map[string]jsontext.Value
		if strictjson.UnmarshalTrusted(v, &obj) != nil {
			return nil, false
		}
		if v = obj[name]; v == nil {
			return nil, false
		}
	}
	if len(v) == 0 || v.Kind() == 'n' {
		return nil, false
	}
	return v, true
}

// headerMatches compares a decoded header value with a JSON body value:
// strings exactly, booleans as "true"/"false", numbers numerically.
func headerMatches(hv string, val jsontext.Value) bool {
	switch val.Kind() {
	case '"':
		var s string
		return strictjson.UnmarshalTrusted(val, &s) == nil && s == hv
	case 't':
		return hv == "true"
	case 'f':
		return hv == "false"
	case '0':
		a, err1 := strconv.ParseFloat(hv, 64)
		b, err2 := strconv.ParseFloat(string(val), 64)
		return err1 == nil && err2 == nil && a == b
	}
	return false
}

// headerValueOf renders an argument for an Mcp-Param-* header: strings as
// they are, integers in decimal, booleans as true or false. Other values
// are not mirrored.
func headerValueOf(val jsontext.Value) (string, bool) {
	switch val.Kind() {
	case '"':
		var s string
		if strictjson.UnmarshalTrusted(val, &s) != nil {
			return "", false
		}
		return encodeHeaderValue(s), true
	case 't':
		return "true", true
	case 'f':
		return "false", true
	case '0':
		f, err := strconv.ParseFloat(string(val), 64)
		if err != nil || !safeInteger(f) {
			return "", false
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}
