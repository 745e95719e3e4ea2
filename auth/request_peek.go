package auth

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/mcp"
)

// An operation is what one JSON-RPC request in a POST acts on: its method
// and the "name" (tool, prompt) and "uri" (resource) strings in its
// params; which one matters depends on the method.
type operation struct {
	method, name, uri string
}

// target returns what op acts on: the name of a tool or prompt, or the
// URI of a resource.
func (op operation) target() string {
	switch op.method {
	case mcp.MethodReadResource, mcp.MethodSubscribe, mcp.MethodUnsubscribe:
		return op.uri
	}
	return op.name
}

var (
	errBodyTooLarge = errors.New("request body too large")
	errBadBody      = errors.New("request body is not a JSON-RPC message or batch")
)

// peekState pools the buffer, readers and decoder of peekOperations.
type peekState struct {
	buf  bytes.Buffer
	lim  io.LimitedReader
	body peekBody // the body the next handler reads
	rd   bytes.Reader
	dec  jsontext.Decoder
}

// peekBody is a buffered request body.
type peekBody struct{ bytes.Reader }

// Close does nothing: the buffer is freed by release.
func (*peekBody) Close() error { return nil }

var peekPool = sync.Pool{New: func() any { return new(peekState) }}

// release returns ps to the pool once the next handler is done with the
// body. It may be called on nil.
func (ps *peekState) release() {
	if ps == nil {
		return
	}
	ps.lim = io.LimitedReader{}
	ps.body.Reset(nil)
	ps.rd.Reset(nil)
	ps.dec.Reset(&ps.rd)
	if ps.buf.Cap() <= 64<<10 {
		ps.buf.Reset()
		peekPool.Put(ps)
	}
}

// scanOptions: duplicate names are tracked only for the members read (the
// MCP handler refuses any duplicate, so such a message never runs).
var scanOptions = jsontext.AllowDuplicateNames(true)

// peekOperations reads the body of r, bounded by max bytes, replaces it
// with an identical reader for the next handler, and returns the
// operations of the requests in it (one, or several for a batch).
// Responses and notifications without a method give nothing. Member names
// are matched after unescaping, case-sensitively, as the MCP handler's
// strict decoding matches them, so both see the same method and name; a
// message with one of those members twice is refused. The caller calls
// ps.release() once the next handler is done with the body. The names and
// URIs of ops may share the memory of the pooled body buffer: they are
// valid until ps.release(), and must be copied to be kept longer.
func peekOperations(r *http.Request, max int64, ops []operation) (_ []operation, ps *peekState, err error) {
	ps = peekPool.Get().(*peekState)
	ps.buf.Reset()
	ps.lim = io.LimitedReader{R: r.Body, N: max + 1}
	_, err = ps.buf.ReadFrom(&ps.lim)
	ps.lim.R = nil
	r.Body.Close()
	if err != nil {
		return ops, ps, err
	}
	if int64(ps.buf.Len()) > max {
		return ops, ps, errBodyTooLarge
	}
	body := ps.buf.Bytes()
	ps.body.Reset(body)
	r.Body = &ps.body
	if direct, ok := scanOperationsDirect(body, ops); ok {
		return direct, ps, nil
	}
	ps.rd.Reset(body)
	ps.dec.Reset(&ps.rd, scanOptions)
	ops, err = scanOperations(&ps.dec, ops)
	if err != nil {
		return ops, ps, errBadBody
	}
	return ops, ps, nil
}

// scanOperations reads a message or a batch.
func scanOperations(d *jsontext.Decoder, ops []operation) ([]operation, error) {
	var err error
	switch d.PeekKind() {
	case '[':
		if _, err := d.ReadToken(); err != nil {
			return ops, err
		}
		for d.PeekKind() != ']' {
			if ops, err = scanMessage(d, ops); err != nil {
				return ops, err
			}
		}
		if _, err := d.ReadToken(); err != nil {
			return ops, err
		}
	case '{':
		if ops, err = scanMessage(d, ops); err != nil {
			return ops, err
		}
	default:
		return ops, errBadBody
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return ops, errBadBody // trailing data
	}
	return ops, nil
}

// scanMessage reads one message object, appending its operation.
func scanMessage(d *jsontext.Decoder, ops []operation) ([]operation, error) {
	if d.PeekKind() != '{' {
		return ops, errBadBody
	}
	if _, err := d.ReadToken(); err != nil {
		return ops, err
	}
	var op operation
	var seenMethod, seenParams bool
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return ops, err
		}
		switch {
		case nameIs(name, "method"):
			if seenMethod {
				return ops, errBadBody
			}
			seenMethod = true
			v, err := d.ReadValue()
			if err != nil {
				return ops, err
			}
			if s, ok := stringValue(v); ok {
				op.method = s
			}
		case nameIs(name, "params"):
			if seenParams {
				return ops, errBadBody
			}
			seenParams = true
			if d.PeekKind() != '{' {
				if err := d.SkipValue(); err != nil {
					return ops, err
				}
				continue
			}
			if op.name, op.uri, err = scanParams(d); err != nil {
				return ops, err
			}
		default:
			if err := d.SkipValue(); err != nil {
				return ops, err
			}
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return ops, err
	}
	if op.method == "" {
		return ops, nil
	}
	return append(ops, op), nil
}

// scanParams reads a params object and returns its name and uri members
// when they are strings.
func scanParams(d *jsontext.Decoder) (name, uri string, err error) {
	if _, err := d.ReadToken(); err != nil {
		return "", "", err
	}
	var seenName, seenURI bool
	for d.PeekKind() != '}' {
		key, err := d.ReadValue()
		if err != nil {
			return "", "", err
		}
		isName, isURI := nameIs(key, "name"), nameIs(key, "uri")
		if !isName && !isURI {
			if err := d.SkipValue(); err != nil {
				return "", "", err
			}
			continue
		}
		if (isName && seenName) || (isURI && seenURI) {
			return "", "", errBadBody
		}
		v, err := d.ReadValue()
		if err != nil {
			return "", "", err
		}
		s, _ := stringValue(v)
		if isName {
			seenName, name = true, s
		} else {
			seenURI, uri = true, s
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return "", "", err
	}
	return name, uri, nil
}

// nameIs reports whether the JSON string v (quoted, maybe escaped) is
// want.
func nameIs(v jsontext.Value, want string) bool {
	if len(v) == len(want)+2 && bytes.IndexByte(v, '\\') < 0 {
		return string(v[1:len(v)-1]) == want
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return false
	}
	s, ok := stringValue(v)
	return ok && s == want
}

// stringValue returns the value of a JSON string.
func stringValue(v jsontext.Value) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), true
	}
	b, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// headerOperation returns the operation named by the 2026-07-28 request
// metadata headers, which the MCP handler checks against the body (so a
// request whose headers lie is refused there).
func headerOperation(h http.Header) (operation, bool) {
	m := h["Mcp-Method"] // canonical keys, as Values reads them
	if len(m) != 1 {
		return operation{}, false
	}
	op := operation{method: m[0]}
	n := h["Mcp-Name"]
	switch len(n) {
	case 0:
	case 1:
		name, ok := decodeMcpName(n[0])
		if !ok {
			return operation{}, false
		}
		op.name, op.uri = name, name // Mcp-Name mirrors the uri of resources/read
	default:
		return operation{}, false
	}
	return op, true
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
