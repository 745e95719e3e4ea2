package jsonrpc2

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// MaxBatchLen is the largest batch Decode accepts.
const MaxBatchLen = 256

// A DecodeError reports bytes that are not a valid JSON-RPC message. Err
// wraps ErrParse, ErrInvalidRequest or ErrMessageTooLarge. ID is the id of
// the offending message when it could be read, so the error response can
// name the request, or the call a response answers can be failed.
type DecodeError struct {
	ID  ID
	Err error
	// Response reports that the bytes were recognisably a response (a
	// "result" or "error" member and no "method"). A connection does not
	// answer it: it fails the outgoing call with ID, or every pending call
	// when ID is null, with ErrUnreadableResponse.
	Response bool
}

// Error returns the message of the underlying error.
func (e *DecodeError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error (wrapping ErrParse or
// ErrInvalidRequest).
func (e *DecodeError) Unwrap() error { return e.Err }

// envelope is the union of request and response members, decoded in one pass.
type envelope struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Method  string         `json:"method"`
	Params  jsontext.Value `json:"params"`
	Result  jsontext.Value `json:"result"`
	Error   *Error         `json:"error"`
}

// Decode decodes one JSON-RPC message or batch. Decoding is strict: member
// names are case-sensitive, duplicates are rejected, and nesting is bounded by
// strictjson.DefaultMaxDepth. Errors are *DecodeError.
func Decode(data []byte) (Message, error) {
	return decode(data, false)
}

// DecodeOwned is Decode for a caller that gives data up to the message:
// the params or result of the message returned may share data's memory,
// so a large message is not copied again. The caller must not modify data
// afterwards.
func DecodeOwned(data []byte) (Message, error) {
	return decode(data, true)
}

func decode(data []byte, owned bool) (Message, error) {
	if firstByte(data) == '{' {
		if msg := decodeFast(data, owned); msg != nil {
			return msg, nil
		}
	}
	msg, err := decodeFull(data)
	if err != nil {
		markResponse(data, err) // unreadable.go
	}
	return msg, err
}

// decodeFull is Decode without the fast path (envelope.go): it
// decodes every message, and is the one that reports errors.
func decodeFull(data []byte) (Message, error) {
	if err := strictjson.CheckDepth(data, strictjson.DefaultMaxDepth); err != nil {
		return nil, &DecodeError{Err: fmt.Errorf("%w: %w", ErrInvalidRequest, err)}
	}
	if first := firstByte(data); first == '[' {
		return decodeBatch(data)
	}
	return decodeOne(data)
}

func firstByte(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func decodeBatch(data []byte) (Message, error) {
	var items []jsontext.Value
	if err := jsonv2.Unmarshal(data, &items); err != nil {
		return nil, classify(err)
	}
	if len(items) == 0 {
		return nil, &DecodeError{Err: fmt.Errorf("%w: empty batch", ErrInvalidRequest)}
	}
	if len(items) > MaxBatchLen {
		return nil, &DecodeError{Err: fmt.Errorf("%w: batch of %d messages, limit %d", ErrInvalidRequest, len(items), MaxBatchLen)}
	}
	batch := make(Batch, 0, len(items))
	for _, item := range items {
		if firstByte(item) == '[' {
			return nil, &DecodeError{Err: fmt.Errorf("%w: nested batch", ErrInvalidRequest)}
		}
		msg, err := decodeOne(item)
		if err != nil {
			return nil, err
		}
		batch = append(batch, msg)
	}
	return batch, nil
}

func classify(err error) *DecodeError {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) && !errors.Is(err, jsontext.ErrDuplicateName) {
		return &DecodeError{Err: fmt.Errorf("%w: %v", ErrParse, err)}
	}
	return &DecodeError{Err: fmt.Errorf("%w: %v", ErrInvalidRequest, err)}
}

func decodeOne(data []byte) (Message, error) {
	var env envelope
	if err := jsonv2.Unmarshal(data, &env); err != nil {
		derr := classify(err)
		if errors.Is(derr, ErrInvalidRequest) {
			derr.ID = salvageID(data)
		}
		return nil, derr
	}
	id, err := parseID(env.ID)
	if err != nil {
		return nil, &DecodeError{Err: err}
	}
	invalid := func(format string, args ...any) error {
		return &DecodeError{ID: id, Err: fmt.Errorf("%w: "+format, append([]any{ErrInvalidRequest}, args...)...)}
	}
	if env.JSONRPC != "2.0" {
		return nil, invalid(`"jsonrpc" must be "2.0"`)
	}
	if env.Method != "" {
		if env.Result != nil || env.Error != nil {
			return nil, invalid("a request cannot carry result or error")
		}
		params := env.Params
		switch firstByte(params) {
		case 0, 'n': // absent or null
			params = nil
		case '{', '[':
		default:
			return nil, invalid(`"params" must be an object or an array`)
		}
		if env.ID != nil && !id.IsValid() {
			return nil, invalid("request id must not be null")
		}
		return &Request{ID: id, Method: env.Method, Params: json.RawMessage(params), checked: true}, nil
	}
	switch {
	case env.Result != nil && env.Error != nil:
		return nil, invalid("a response cannot carry both result and error")
	case env.Result != nil:
		if !id.IsValid() {
			return nil, invalid("a result needs an id")
		}
		return &Response{ID: id, Result: json.RawMessage(env.Result)}, nil
	case env.Error != nil:
		if env.ID == nil {
			return nil, invalid("a response needs an id (null when unknown)")
		}
		return &Response{ID: id, Error: env.Error}, nil
	}
	return nil, invalid(`not a request (no "method") nor a response (no "result" or "error")`)
}

// salvageID pulls the id out of a message that failed to decode as a whole,
// so the error response can name the request.
func salvageID(data []byte) ID {
	var probe struct {
		ID jsontext.Value `json:"id"`
	}
	if jsonv2.Unmarshal(data, &probe, jsontext.AllowDuplicateNames(true)) != nil {
		return ID{}
	}
	id, _ := parseID(probe.ID)
	return id
}

// DecodeParams decodes the params of req into v under the strict rules of
// strictjson. The nesting depth of params that Decode read was bounded with
// the whole message, so only params built otherwise (in memory, or by a
// custom transport) are checked again. Absent params leave v unchanged.
func DecodeParams(req *Request, v any) error {
	if len(req.Params) == 0 {
		return nil
	}
	if req.checked {
		return strictjson.UnmarshalTrusted(req.Params, v)
	}
	return strictjson.Unmarshal(req.Params, v)
}

// Encode returns the JSON encoding of msg.
func Encode(msg Message) ([]byte, error) {
	return AppendMessage(nil, msg)
}

// AppendMessage appends the JSON encoding of msg to dst.
func AppendMessage(dst []byte, msg Message) ([]byte, error) {
	switch m := msg.(type) {
	case *Request:
		dst = append(dst, `{"jsonrpc":"2.0"`...)
		if m.ID.IsValid() {
			dst = append(dst, `,"id":`...)
			dst = m.ID.appendJSON(dst)
		}
		dst = append(dst, `,"method":`...)
		dst, _ = jsontext.AppendQuote(dst, m.Method)
		if len(m.Params) > 0 {
			dst = append(dst, `,"params":`...)
			dst = append(dst, m.Params...)
		}
		return append(dst, '}'), nil
	case *Response:
		dst = append(dst, `{"jsonrpc":"2.0","id":`...)
		dst = m.ID.appendJSON(dst)
		if m.Error != nil {
			dst = append(dst, `,"error":`...)
			return append(appendError(dst, m.Error), '}'), nil
		}
		dst = append(dst, `,"result":`...)
		if len(m.Result) == 0 {
			dst = append(dst, "{}"...)
		} else {
			dst = append(dst, m.Result...)
		}
		return append(dst, '}'), nil
	case Batch:
		dst = append(dst, '[')
		for i, item := range m {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendMessage(dst, item); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	return dst, fmt.Errorf("jsonrpc2: cannot encode %T", msg)
}

func appendError(dst []byte, e *Error) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst, _ = jsontext.AppendQuote(dst, e.Message)
	if len(e.Data) > 0 {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.Data...)
	}
	return append(dst, '}')
}

// marshalParams encodes v for the params or result member. nil, and values
// that encode as null, give nil.
func marshalParams(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	b, err := strictjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

// ParamsChecked reports whether Decode produced req, so its params are one
// JSON value already validated under the strict rules (syntax, UTF-8, no
// duplicate names, bounded depth). Faster decoders may rely on that;
// params built otherwise must be decoded with DecodeParams.
func ParamsChecked(req *Request) bool { return req.checked }
