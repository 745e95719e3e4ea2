package mcp

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The 2026-07-28 era of the streamable HTTP transport: every POST is one
// request served on its own, on the HTTP request's goroutine, with no
// session or connection object.

// serveModern serves a 2026-07-28 POST. p holds the probe fields of its
// params and perr the error of reading them; p is nil when the request was
// routed by its MCP-Protocol-Version header without probing, and the
// request metadata is then checked on the params the method decodes.
func (px *postExchange) serveModern(req *jsonrpc2.Request, p *modernProbe, perr error) {
	h, r, s := px.h, px.r, px.server
	if req.IsNotification() {
		ctx := context.WithValue(r.Context(), httpRequestKey{}, r)
		if _, err := s.serveStateless(ctx, req, nil); err != nil {
			h.opts.Logger.Debug("mcp: notification handler failed", "method", req.Method, "error", err)
		}
		px.w.WriteHeader(http.StatusAccepted)
		return
	}
	var check func(params any, decodeErr error) error
	if p == nil {
		// The closure takes what it needs, not px, which then stays on
		// the stack.
		h, r, s := px.h, px.r, px.server
		check = func(params any, decodeErr error) error {
			c := postExchange{h: h, r: r, server: s}
			return c.checkDecoded(req, params, decodeErr)
		}
	} else if resp := px.checkModernRequest(req, p, perr); resp != nil {
		px.writeJSON(modernStatus(resp.Error), resp)
		return
	}
	if req.Method == MethodSubscriptionsListen && px.serveListenHijacked(req, p != nil) { // hijacked_serve.go
		return
	}
	st := &responseStream{cfg: &h.cfg, req: r, canSSE: px.accept.sse, status: modernStatus}
	px.stream = st
	ctx := r.Context()
	if req.Method == MethodSubscriptionsListen {
		// A long-lived stream, bounded in number; Close and Shutdown end
		// it by cancelling its context.
		if !h.admitListen() {
			refuseAtCapacity(px.w, req.ID, "too many subscriptions/listen streams: try again later")
			return
		}
		defer h.endListen()
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		st.cancel, st.queued = cancel, true
	}
	st.attachLocked(px.w)
	var notify func(context.Context, string, any) error
	if px.accept.sse {
		notify = st.notify
	}
	res, err := s.serveStatelessChecked(withStream(ctx, st), req, notify, check)
	st.finish(newResponse(req.ID, res, err))
}

// checkDecoded is checkModernRequest on the params as the method decoded
// them, so they are parsed once. When they did not decode, or a value the
// headers mirror is empty (it may have been absent or not a string), the
// probe reads the raw params, so the answer is the same as probing first.
func (px *postExchange) checkDecoded(req *jsonrpc2.Request, params any, decodeErr error) error {
	var p modernProbe
	var perr error
	if decodeErr != nil || !probeDecoded(req.Method, params, &p) {
		p = modernProbe{}
		perr = decodeProbe(req.Params, &p)
	}
	if resp := px.checkModernRequest(req, &p, perr); resp != nil {
		return resp.Error
	}
	return nil
}

// probeDecoded fills p from decoded params, and reports whether it could
// do so exactly.
func probeDecoded(method string, params any, p *modernProbe) bool {
	if meta := requestMeta(params); meta != nil {
		p.version = meta.ProtocolVersion
		p.hasCaps = meta.ClientCapabilities != nil
	}
	var value string
	switch t := params.(type) {
	case *CallToolParams:
		value, p.name, p.hasName = t.Name, t.Name, true
		if raw, ok := t.Arguments.(json.RawMessage); ok {
			p.arguments = raw
		}
	case *GetPromptParams:
		value, p.name, p.hasName = t.Name, t.Name, true
	case *ReadResourceParams:
		value, p.uri, p.hasURI = t.URI, t.URI, true
	case *GetTaskParams:
		value, p.taskID, p.hasTaskID = t.TaskID, t.TaskID, true
	case *UpdateTaskParams:
		value, p.taskID, p.hasTaskID = t.TaskID, t.TaskID, true
	case *CancelTaskParams:
		value, p.taskID, p.hasTaskID = t.TaskID, t.TaskID, true
	default:
		_, _, applies := p.nameSource(method)
		return !applies
	}
	if _, _, applies := p.nameSource(method); !applies {
		return true
	}
	return value != ""
}

// checkModernRequest validates what the HTTP layer owns: the required
// per-request _meta and the request metadata headers. It returns the error
// response, or nil.
func (px *postExchange) checkModernRequest(req *jsonrpc2.Request, p *modernProbe, perr error) *jsonrpc2.Response {
	if perr != nil {
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, perr)}
	}
	switch {
	case p.version == "":
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", MetaKeyProtocolVersion, Version20260728)}
	case !p.hasCaps:
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", MetaKeyClientCapabilities, Version20260728)}
	}
	return px.h.checkModernHeaders(px.r, req, p, px.server)
}

// notify sends a notification related to the stream's request.
func (st *responseStream) notify(ctx context.Context, method string, params any) error {
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return err
	}
	if st.queued && ownsWrites(ctx) {
		// A listener's own goroutine: it already queues the stream's
		// notifications and ends the stream of a client that lags.
		return st.sendNow(n)
	}
	return st.send(n)
}

// modernStatus is the HTTP status of a 2026-07-28 error response sent as
// plain JSON: 404 for an unknown method, 400 for the protocol errors the
// transport names (malformed request, header mismatch, missing client
// capability, unsupported version, missing _meta), 200 for the rest.
func modernStatus(e *jsonrpc2.Error) int {
	switch e.Code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeParseError, CodeInvalidRequest, CodeHeaderMismatch,
		CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	case CodeInvalidParams:
		if isMissingMetaError(e) {
			return http.StatusBadRequest
		}
	}
	return http.StatusOK
}

// isMissingMetaError reports an invalid-params error about the required
// per-request _meta, which the transport answers with 400.
func isMissingMetaError(e *jsonrpc2.Error) bool {
	const prefix = "missing _meta["
	return len(e.Message) >= len(prefix) && e.Message[:len(prefix)] == prefix
}
