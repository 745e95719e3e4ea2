package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"time"
)

// Requests and notifications of any method, for methods beyond the
// protocol's own (extensions; see [Method]).

// emptyParams are the params of a request or notification sent without
// any: they still carry _meta.
type emptyParams struct {
	Meta Meta `json:"_meta,omitzero"`
}

// Call sends a request of any method to the server and decodes its result
// into result, a pointer (nil to discard it). params is a pointer to a
// struct with a Meta field, as the protocol's params types have, or nil;
// the SDK sends a copy, to which it adds the per-request metadata of
// 2026-07-28. The request passes through the sending middleware; in
// 2026-07-28 an input-required result (a result type with a ResultType
// field) is served with the client's handlers and the request retried, as
// for the protocol's own methods.
func (cs *ClientSession) Call(ctx context.Context, method string, params, result any) error {
	p, err := copyParams(params)
	if err != nil {
		return fmt.Errorf("mcp: Call %s: %w", method, err)
	}
	var results resultMaker = resultOf[struct{}]{}
	if result != nil {
		rt := reflect.TypeOf(result)
		if rt.Kind() != reflect.Pointer || reflect.ValueOf(result).IsNil() {
			return fmt.Errorf("mcp: Call %s: result must be a non-nil pointer, not %T", method, result)
		}
		results = reflectResult{rt.Elem()}
	}
	out, err := cs.roundTrips(ctx, method, p, results)
	if err != nil {
		return err
	}
	if result != nil {
		if reflect.TypeOf(out) != reflect.TypeOf(result) {
			return fmt.Errorf("mcp: Call %s: sending middleware returned %T, not %T", method, out, result)
		}
		reflect.ValueOf(result).Elem().Set(reflect.ValueOf(out).Elem())
	}
	return nil
}

// reflectResult makes results of a type known at run time.
type reflectResult struct{ t reflect.Type }

func (r reflectResult) newResult() any { return reflect.New(r.t).Interface() }

// Notify sends a notification of any method to the server, through the
// sending middleware. params is as for [ClientSession.Call].
func (cs *ClientSession) Notify(ctx context.Context, method string, params any) error {
	p, err := copyParams(params)
	if err != nil {
		return fmt.Errorf("mcp: Notify %s: %w", method, err)
	}
	if cs.modern {
		if m := metaOf(p); m != nil {
			cs.fillMeta(m)
		}
	}
	return cs.notify(ctx, method, p)
}

// Notify sends a notification of any method to the client, through the
// sending middleware: on the request's own stream when the session serves
// one 2026-07-28 request, on the connection otherwise. params is a pointer
// to a struct (with a Meta field for _meta) or nil.
func (ss *ServerSession) Notify(ctx context.Context, method string, params any) error {
	if params == nil {
		params = &emptyParams{}
	}
	return ss.notify(ctx, method, params)
}

// copyParams returns a shallow copy of the struct params points to, or
// empty params for nil.
func copyParams(params any) (any, error) {
	if params == nil {
		return &emptyParams{}, nil
	}
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, errors.New("params must be a pointer to a struct")
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	return c.Interface(), nil
}

// MissingExtensionError returns the error a handler returns for a request
// that needs an extension the client did not declare: -32021 (missing
// required client capability) with the extension in its data, as
// 2026-07-28 defines.
func MissingExtensionError(extension string) error {
	return newErrorWithData(CodeMissingRequiredClientCapability,
		"Missing required client capability: the request needs the extension "+extension,
		&MissingCapabilitiesData{RequiredCapabilities: &ClientCapabilities{Extensions: map[string]any{extension: map[string]any{}}}})
}

// Transport describes the connection of the session: for a server session
// made by Connect, its transport; for a 2026-07-28 request or a streamable
// HTTP session, what the request context tells ([RequestInfoFromContext]
// is more precise there), else NetworkTCP for sessions over HTTP.
func (ss *ServerSession) Transport() TransportInfo {
	if t := ss.root().state().transport; t.Network != "" {
		return t
	}
	if _, ok := ss.root().conn.(*httpSession); ok || ss.request != nil && ss.root().conn == nil {
		return TransportInfo{Network: NetworkTCP}
	}
	return TransportInfo{}
}

// Transport describes the connection of the session; over HTTP its
// RemoteAddr is the server's host and port.
func (cs *ClientSession) Transport() TransportInfo { return cs.transport }

// cancelledNotificationTimeout bounds the sending of one
// notifications/cancelled.
const cancelledNotificationTimeout = 5 * time.Second

// sendCancelledNotification tells the peer, with notifications/cancelled,
// that a request this side sent is cancelled. It sends on a goroutine of
// its own, within cancelledNotificationTimeout: the cancelled call returns
// at once, and a slow transport (a POST that takes a while on a busy
// peer) still gets time to deliver what lets the peer stop its work.
// Failures are logged at debug level: the peer then finishes the request
// and its answer is dropped.
func sendCancelledNotification(logger *slog.Logger, notify func(ctx context.Context, method string, params any) error, params *CancelledParams) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelledNotificationTimeout)
		defer cancel()
		if err := notify(ctx, NotificationCancelled, params); err != nil && !errors.Is(err, ErrConnectionClosed) {
			logger.Debug("mcp: sending notifications/cancelled failed", "error", err)
		}
	}()
}
