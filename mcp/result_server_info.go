package mcp

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Results of protocol 2026-07-28 identify the server in their _meta
// ("io.modelcontextprotocol/serverInfo"), as the revision asks of servers.
// The member is spliced into the encoded result, so a result a handler
// shares between requests is never modified.

// withServerInfo is withServerInfo with s's identity.
func (s *Server) withServerInfo(res any, err error) (any, error) {
	return withServerInfo(res, err, s.serverInfoMember())
}

// serverInfoOnce holds a server's encoded serverInfo member, made when
// the server first answers a 2026-07-28 request: a server's
// Implementation does not change after NewServer, so it is encoded once
// per server, and a server that never answers such a request never
// encodes it.
type serverInfoOnce struct {
	once   sync.Once
	member []byte
}

// serverInfoMember returns the encoded serverInfo member of s.
func (s *Server) serverInfoMember() []byte {
	s.info.once.Do(func() { s.info.member = encodeServerInfo(&s.impl) })
	return s.info.member
}

// encodeServerInfo returns the encoded _meta member naming the server:
// `"io.modelcontextprotocol/serverInfo":{...}`.
func encodeServerInfo(impl *Implementation) []byte {
	b, err := strictjson.Marshal(impl)
	if err != nil {
		return nil // an Implementation always encodes; nil adds nothing
	}
	return append([]byte(`"`+MetaKeyServerInfo+`":`), b...)
}

// withServerInfo returns the result of a 2026-07-28 request encoded, with
// info (from encodeServerInfo) added to its _meta unless the handler set
// a serverInfo itself. Errors and results that do not encode as a JSON
// object are returned as they are.
func withServerInfo(res any, err error, info []byte) (any, error) {
	if err != nil || res == nil || len(info) == 0 {
		return res, err
	}
	var raw []byte
	switch r := res.(type) {
	case json.RawMessage:
		raw = r
	case *CallToolResult, *ReadResourceResult:
		// The common cases, encoded directly after the _meta member in
		// one buffer.
		size, _ := directSize(r)
		dst := make([]byte, 0, size+32+len(info))
		dst = append(append(append(dst, `{"_meta":{`...), info...), `},`...)
		n := len(dst)
		if b, ok := appendDirect(dst, r); ok && len(b) > n+1 && b[n] == '{' {
			if b[n+1] == '}' { // no members: drop the comma too
				return json.RawMessage(append(b[:n-1], '}')), nil
			}
			return json.RawMessage(append(b[:n], b[n+1:]...)), nil
		}
	}
	if raw == nil {
		b, merr := strictjson.Marshal(res)
		if merr != nil {
			return res, err // the transport reports the encoding error
		}
		raw = b
	}
	out, ok := spliceServerInfo(raw, info)
	if !ok {
		return json.RawMessage(raw), nil
	}
	return json.RawMessage(out), nil
}

// spliceServerInfo adds the member info to the _meta object of the
// encoded result obj, creating _meta if it has none. It reports false,
// changing nothing, when obj is not an object, its _meta is not an
// object, or _meta already names a server.
func spliceServerInfo(obj, info []byte) ([]byte, bool) {
	start := bytes.IndexByte(obj, '{')
	if start < 0 || len(bytes.TrimSpace(obj[:start])) != 0 {
		return obj, false
	}
	at, found, ok := metaObjectStart(obj)
	if !ok {
		return obj, false
	}
	if !found {
		// No _meta: add one as the first member.
		out := make([]byte, 0, len(obj)+len(info)+16)
		out = append(out, obj[:start+1]...)
		out = append(out, `"_meta":{`...)
		out = append(out, info...)
		out = append(out, '}')
		if rest := bytes.TrimLeft(obj[start+1:], " \t\r\n"); len(rest) > 0 && rest[0] != '}' {
			out = append(out, ',')
		}
		return append(out, obj[start+1:]...), true
	}
	out := make([]byte, 0, len(obj)+len(info)+1)
	out = append(out, obj[:at+1]...)
	out = append(out, info...)
	if rest := bytes.TrimLeft(obj[at+1:], " \t\r\n"); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, obj[at+1:]...), true
}

// metaObjectStart returns the offset of the '{' that opens the top-level
// _meta member's object, and whether there is one. ok is false when _meta
// is not an object, already has a serverInfo member, or obj is malformed.
// A result without "_meta" anywhere is not scanned.
func metaObjectStart(obj []byte) (at int, found, ok bool) {
	if !bytes.Contains(obj, []byte(`"_meta"`)) {
		return 0, false, true
	}
	d := jsontext.NewDecoder(bytes.NewReader(obj))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0, false, false
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadToken()
		if err != nil {
			return 0, false, false
		}
		if name.String() != "_meta" {
			if err := d.SkipValue(); err != nil {
				return 0, false, false
			}
			continue
		}
		if d.PeekKind() != '{' {
			return 0, false, false
		}
		before := d.InputOffset()
		val, err := d.ReadValue()
		if err != nil {
			return 0, false, false
		}
		var members map[string]jsontext.Value
		if strictjson.Unmarshal(val, &members) != nil {
			return 0, false, false
		}
		if _, named := members[MetaKeyServerInfo]; named {
			return 0, false, false
		}
		i := bytes.IndexByte(obj[before:], '{')
		if i < 0 {
			return 0, false, false
		}
		return int(before) + i, true, true
	}
	return 0, false, true
}
