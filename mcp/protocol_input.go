package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ---- Multi round-trip requests (2026-07-28) ----

// InputRequiredResult is the result a server returns, instead of the final
// result of tools/call, prompts/get or resources/read, when it needs more
// input from the client first (2026-07-28). The client fulfils the
// InputRequests and retries the request with the responses and the
// RequestState. [CallToolResult], [GetPromptResult] and
// [ReadResourceResult] carry the same fields, so a client can decode
// either kind of result into them and look at ResultType.
type InputRequiredResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "input_required".
	ResultType string `json:"resultType,omitempty"`
	// InputRequests are the requests the client must fulfil, keyed by
	// server-assigned identifiers.
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque server state the client must echo on retry.
	RequestState string `json:"requestState,omitempty"`
}

// InputRequest is one request inside an [InputRequiredResult]: a
// sampling/createMessage, elicitation/create or roots/list request without
// a JSON-RPC ID (2026-07-28).
type InputRequest struct {
	// Method is MethodCreateMessage, MethodElicit or MethodListRoots.
	Method string `json:"method"`
	// Params are the request's params. After decoding they are a
	// *CreateMessageParams, *ElicitParams or *ListRootsParams for those
	// methods and a json.RawMessage for any other.
	Params any `json:"params,omitzero"`
}

// UnmarshalJSON decodes an input request, decoding the params of known
// methods into their params type.
func (r *InputRequest) UnmarshalJSON(data []byte) error {
	var w struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	out := InputRequest{Method: w.Method}
	if w.Params != nil {
		var p any
		switch w.Method {
		case MethodCreateMessage:
			p = new(CreateMessageParams)
		case MethodElicit:
			p = new(ElicitParams)
		case MethodListRoots:
			p = new(ListRootsParams)
		default:
			out.Params = w.Params
		}
		if p != nil {
			if err := strictjson.UnmarshalTrusted(w.Params, p); err != nil {
				return err
			}
			out.Params = p
		}
	}
	*r = out
	return nil
}
