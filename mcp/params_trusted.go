package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/strictjson"
)

// Trusted params decoding: the params of a request that jsonrpc2.Decode
// read were validated with the whole message (syntax, UTF-8, no duplicate
// names, bounded depth), so the params of the hottest methods are read
// directly (a trusted strictjson.Scanner) instead of by the reflective decoder.
// Anything unusual (escaped member names, members of an unexpected type,
// rarely used members) makes the fast path give up, and the params are
// decoded by the strict decoder as before, with its errors.

// A trustedParams decodes itself from validated params. decodeTrusted
// reports whether it did; when it did not, the params are left zero.
type trustedParams interface {
	decodeTrusted(data []byte) bool
}

// decodeRequestParams decodes the params of req strictly; params whose
// depth was bounded when the message was decoded are not scanned again.
func decodeRequestParams(req *jsonrpc2.Request, params any) error {
	if tp, ok := params.(trustedParams); ok && len(req.Params) > 0 && jsonrpc2.ParamsChecked(req) {
		if tp.decodeTrusted(req.Params) {
			return nil
		}
	}
	return jsonrpc2.DecodeParams(req, params)
}

func (p *CallToolParams) decodeTrusted(data []byte) bool {
	if !p.readTrusted(data) {
		*p = CallToolParams{}
		return false
	}
	return true
}

// readTrusted reads the members of tools/call params that a plain call
// has: name, arguments and _meta (a trusted strictjson.Scanner).
func (p *CallToolParams) readTrusted(data []byte) bool {
	o, ok := strictjson.ScanObject(data, true)
	if !ok {
		return false
	}
	for {
		name, v, more := o.Member()
		if !more {
			return o.Complete()
		}
		switch string(name) {
		case "name":
			if v[0] != '"' {
				return false
			}
			s, err := unquoteName(v)
			if err != nil {
				return false
			}
			p.Name = s
		case "arguments":
			if v[0] == 'n' {
				return false
			}
			p.Arguments = json.RawMessage(v)
		case "_meta":
			if v[0] != '{' || p.Meta.UnmarshalJSON(v) != nil {
				return false
			}
		case "task", "inputResponses", "requestState":
			return false
		}
	}
}
