package mcp

import (
	"context"
	"net/http"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The 2026-07-28 era of the streamable HTTP transport: every POST is one
// request served on its own, on the HTTP request's goroutine, with no
// session or connection object.

// serveModern serves a 2026-07-28 POST. perr is the error of decoding the
// probe fields of its params.
func (h *StreamableHTTPHandler) serveModern(w http.ResponseWriter, r *http.Request, s *Server, req *jsonrpc2.Request, p *modernProbe, perr error, accept acceptSet) {
	if req.IsNotification() {
		ctx := context.WithValue(r.Context(), httpRequestKey{}, r)
		_, _ = s.serveStateless(ctx, req, nil)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if resp := h.checkModernRequest(r, s, req, p, perr); resp != nil {
		writeJSONResponse(w, modernStatus(resp.Error), resp)
		return
	}
	st := &responseStream{h: h, req: r, canSSE: accept.sse, status: modernStatus}
	ctx := r.Context()
	if req.Method == MethodSubscriptionsListen {
		// A long-lived stream: Close ends it by cancelling its context.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		st.cancel = cancel
	}
	st.attachLocked(w)
	var notify func(context.Context, string, any) error
	if accept.sse {
		notify = st.notify
	}
	res, err := s.serveStateless(withStream(ctx, st), req, notify)
	st.finish(jsonrpc2.NewResponse(req.ID, res, err))
}

// checkModernRequest validates what the HTTP layer owns: the required
// per-request _meta and the request metadata headers. It returns the error
// response, or nil.
func (h *StreamableHTTPHandler) checkModernRequest(r *http.Request, s *Server, req *jsonrpc2.Request, p *modernProbe, perr error) *jsonrpc2.Response {
	if perr != nil {
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "invalid params for %s: %v", req.Method, perr)}
	}
	switch {
	case p.version == "":
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", MetaKeyProtocolVersion, Version20260728)}
	case !p.hasCaps:
		return &jsonrpc2.Response{ID: req.ID, Error: newError(CodeInvalidParams, "missing _meta[%q]: required in every %s request", MetaKeyClientCapabilities, Version20260728)}
	}
	return h.checkModernHeaders(r, req, p, s)
}

// notify sends a notification related to the stream's request.
func (st *responseStream) notify(_ context.Context, method string, params any) error {
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return err
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
