package jsonrpc2

import "encoding/json"

// A Message is one JSON-RPC 2.0 message: a *Request (which is a notification
// when its ID is null), a *Response, or a Batch.
type Message interface {
	isMessage()
}

// A Request asks the peer to run a method. A Request whose ID is null is a
// notification: it gets no response.
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage // raw JSON object or array, or nil when absent

	// checked reports that Decode produced the request, so its params are
	// within strictjson.DefaultMaxDepth and need no second depth check.
	checked bool
	// decoded holds Params already decoded by a layer that had to look
	// inside them first (KeepDecodedParams), for the one that serves the
	// request to take instead of decoding them again.
	decoded any
}

// KeepDecodedParams records v, the params of req decoded by a caller that
// needed them before the request is served, for TakeDecodedParams.
func KeepDecodedParams(req *Request, v any) { req.decoded = v }

// TakeDecodedParams returns the params KeepDecodedParams recorded for req,
// or nil, and forgets them: they are handed to one handler only.
func TakeDecodedParams(req *Request) any {
	v := req.decoded
	req.decoded = nil
	return v
}

// A Response answers a request. Exactly one of Result and Error is set.
type Response struct {
	ID     ID
	Result json.RawMessage
	Error  *Error

	// failure, set only on this side, ends the call in place of a
	// response that could not be read (Conn.failUnreadable).
	failure error
}

// A Batch is a JSON array of messages (JSON-RPC 2.0 §6). MCP allows batches
// only in protocol version 2025-03-26.
type Batch []Message

func (*Request) isMessage()  {}
func (*Response) isMessage() {}
func (Batch) isMessage()     {}

// IsNotification reports whether r expects no response.
func (r *Request) IsNotification() bool { return !r.ID.IsValid() }

// NewNotification returns a notification for method with params encoded.
func NewNotification(method string, params any) (*Request, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	return &Request{Method: method, Params: raw}, nil
}

// NewCall returns a request with the given id, method and params encoded.
func NewCall(id ID, method string, params any) (*Request, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	return &Request{ID: id, Method: method, Params: raw}, nil
}

// NewResponse returns the response to id carrying result, or err when it is
// not nil. A result that cannot be encoded becomes an internal error.
func NewResponse(id ID, result any, err error) *Response {
	if err != nil {
		return &Response{ID: id, Error: errorFor(err)}
	}
	raw, merr := marshalParams(result)
	if merr != nil {
		return &Response{ID: id, Error: &Error{Code: CodeInternalError, Message: "encoding result: " + merr.Error()}}
	}
	if raw == nil {
		raw = json.RawMessage("{}")
	}
	return &Response{ID: id, Result: raw}
}
