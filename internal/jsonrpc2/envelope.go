package jsonrpc2

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// The fast path of Decode: one pass of a pooled token reader over the
// message, under the same strict rules as the full decoder (exact member
// names, no duplicate names at any level, valid UTF-8, depth bounded by
// strictjson.CheckDepth), that keeps the members of a request or a result
// response as sub-slices of the input and copies only the params or the
// result. Anything it does not recognise as a well-formed request or result
// (error responses, wrong member types, escaped member names, any syntax or
// strictness error) is left to the full decoder, so errors and unusual
// messages are decoded exactly as before.

// envelopeReader is a pooled token reader of messages.
type envelopeReader struct {
	rd  bytes.Buffer // a bytes.Buffer: the decoder reads its bytes in place
	dec jsontext.Decoder
}

var envelopePool = sync.Pool{New: func() any { return new(envelopeReader) }}

// messageMembers are the members of a request or a result, as sub-slices
// of the message.
type messageMembers struct {
	version, id, method, params, result []byte
}

// decodeFast returns the request or result response data holds, or nil
// when data is neither, or needs the full decoder to say why not.
func decodeFast(data []byte, owned bool) Message {
	var m messageMembers
	ok := scanEnvelope(data, &m) // envelope_scan.go
	if !ok {
		m = messageMembers{}
		ok = readEnvelope(data, &m)
	}
	switch {
	case !ok:
		return nil
	case m.result != nil:
		if resp := m.response(owned); resp != nil {
			return resp
		}
		return nil
	}
	if req := m.request(owned); req != nil {
		return req
	}
	return nil
}

// readEnvelope reads the members of a message with the pooled token
// reader, as read does.
func readEnvelope(data []byte, m *messageMembers) bool {
	if strictjson.CheckDepth(data, strictjson.DefaultMaxDepth) != nil {
		return false
	}
	er := envelopePool.Get().(*envelopeReader)
	er.rd = *bytes.NewBuffer(data)
	er.dec.Reset(&er.rd)
	ok := er.read(data, m)
	er.rd = bytes.Buffer{}
	er.dec.Reset(&er.rd)
	envelopePool.Put(er)
	return ok
}

// read reads the members of the single JSON object data holds into m. It
// reports false for anything but an object whose member names are written
// without escapes and which has no error member.
func (er *envelopeReader) read(data []byte, m *messageMembers) bool {
	d := &er.dec
	if d.PeekKind() != '{' {
		return false
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil || len(name) < 2 || bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		var member *[]byte
		switch string(name[1 : len(name)-1]) { // no allocation
		case "jsonrpc":
			member = &m.version
		case "id":
			member = &m.id
		case "method":
			member = &m.method
		case "params":
			member = &m.params
		case "result":
			member = &m.result
		case "error":
			return false
		}
		v, err := d.ReadValue()
		if err != nil {
			return false
		}
		if member != nil {
			// v is only valid until the next read: keep the input's bytes.
			end := int(d.InputOffset())
			*member = data[end-len(v) : end]
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	_, err := d.ReadToken()
	return err == io.EOF
}

// request checks the members as the full decoder does and returns the
// request, or nil when the full decoder must report an error.
func (m *messageMembers) request(owned bool) *Request {
	if string(m.version) != `"2.0"` || len(m.method) < 3 || m.method[0] != '"' {
		return nil
	}
	switch firstByte(m.params) {
	case 0, 'n':
		m.params = nil
	case '{', '[':
	default:
		return nil
	}
	if string(m.id) == "null" {
		return nil // a request id must not be null
	}
	id, err := parseID(m.id)
	if err != nil {
		return nil
	}
	method, err := unquoteMember(m.method)
	if err != nil || method == "" {
		return nil
	}
	req := &Request{ID: id, Method: method, checked: true}
	if m.params != nil {
		req.Params = keep(m.params, owned)
	}
	return req
}

// response checks the members of a message with a result as the full
// decoder does and returns the response, or nil when the full decoder must
// decide (a method or params beside the result, a null result, a bad id).
func (m *messageMembers) response(owned bool) *Response {
	if string(m.version) != `"2.0"` || m.method != nil || m.params != nil || string(m.result) == "null" || m.id == nil {
		return nil
	}
	id, err := parseID(m.id)
	if err != nil || !id.IsValid() {
		return nil
	}
	return &Response{ID: id, Result: keep(m.result, owned)}
}

// keep returns b, a sub-slice of a message, as the message's own: b itself
// when the caller gave the message up, a copy otherwise.
func keep(b []byte, owned bool) []byte {
	if owned {
		return b[:len(b):len(b)]
	}
	return bytes.Clone(b)
}

// unquoteMember returns the text of a JSON string already validated.
func unquoteMember(raw []byte) (string, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return internName(raw[1 : len(raw)-1]), nil
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	return string(b), err
}

// nameCache holds recently seen method names, so that a stream of requests
// for the same few methods does not allocate a name per message. It is
// direct-mapped and bounded: a name replaces the one in its slot, so
// whatever names a peer sends, the cache holds at most len(nameCache).
var nameCache [64]atomic.Pointer[string]

// internName returns b as a string, from nameCache when it is there.
func internName(b []byte) string {
	if len(b) > 64 {
		return string(b)
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &nameCache[h%uint32(len(nameCache))]
	if p := slot.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	slot.Store(&s)
	return s
}
