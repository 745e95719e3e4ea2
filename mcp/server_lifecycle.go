package mcp

import (
	"context"
	"fmt"
	"slices"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The handlers of the lifecycle methods: initialize, ping, server/discover
// and the notifications about the session itself.

func (ss *ServerSession) initialize(ctx context.Context, p *InitializeParams) (*InitializeResult, error) {
	if !ss.era.CompareAndSwap(eraUndecided, eraLegacy) && ss.era.Load() != eraLegacy {
		return nil, newError(CodeInvalidRequest, "initialize is not part of protocol %s, which this connection uses", Version20260728)
	}
	if ss.initialized.Load() {
		return nil, newError(CodeInvalidRequest, "session already initialized")
	}
	s := ss.server
	version := s.negotiate(p.ProtocolVersion)
	if version == "" {
		return nil, newErrorWithData(CodeInvalidRequest,
			fmt.Sprintf("this server does not support the initialize handshake; supported protocol versions: %v", s.versions()),
			&UnsupportedProtocolVersionData{Requested: p.ProtocolVersion, Supported: s.versions()})
	}
	ss.mu.Lock()
	ss.version = version
	ss.clientInfo = p.ClientInfo
	ss.clientCaps = p.Capabilities
	ss.batchesOK = version == Version20250326
	ss.changeMark = s.changeMark()
	ss.mu.Unlock()
	ss.initialized.Store(true)
	impl := s.impl
	caps := s.capabilities()
	s.legacyTaskCapabilities(caps, version) // task_legacy_server.go
	return &InitializeResult{
		ProtocolVersion: version,
		Capabilities:    caps,
		ServerInfo:      &impl,
		Instructions:    s.opts.Instructions,
	}, nil
}

// negotiate picks the legacy protocol version for an initialize request:
// the client's if the server supports it, else the newest legacy version
// the server supports, or "" if it supports none.
func (s *Server) negotiate(requested string) string {
	versions := s.versions()
	if !isModernVersion(requested) && slices.Contains(versions, requested) {
		return requested
	}
	for _, v := range versions {
		if !isModernVersion(v) {
			return v
		}
	}
	return ""
}

func (ss *ServerSession) ping(context.Context, *PingParams) (*EmptyResult, error) {
	return &EmptyResult{}, nil
}

func (ss *ServerSession) discover(ctx context.Context, p *DiscoverParams) (*DiscoverResult, error) {
	s := ss.server
	impl := s.impl
	res := &DiscoverResult{
		SupportedVersions: s.versions(),
		Capabilities:      s.capabilities(),
		Instructions:      s.opts.Instructions,
	}
	res.Meta.ServerInfo = &impl
	s.setCacheHints(MethodDiscover, &res.TTLMs, &res.CacheScope)
	return res, nil
}

func (ss *ServerSession) initializedNotification(ctx context.Context, p *InitializedParams) {
	if h := ss.server.opts.InitializedHandler; h != nil {
		h(ctx, ss, p)
	}
}

func (ss *ServerSession) cancelledNotification(ctx context.Context, p *CancelledParams) {
	if conn := ss.root().conn; conn != nil {
		if id, ok := idFromRaw(p.RequestID); ok {
			conn.CancelIncoming(id)
		}
	}
}

func (ss *ServerSession) progressNotification(ctx context.Context, p *ProgressNotificationParams) {
	if h := ss.server.opts.ProgressNotificationHandler; h != nil {
		h(ctx, ss, p)
	}
}

func (ss *ServerSession) rootsListChangedNotification(ctx context.Context, p *RootsListChangedParams) {
	ss.rootsChanged()
	if h := ss.server.opts.RootsListChangedHandler; h != nil {
		h(ctx, ss, p)
	}
}

// idFromRaw converts a request id decoded as a Go value back to an ID.
func idFromRaw(v any) (jsonrpc2.ID, bool) {
	switch v := v.(type) {
	case string:
		return jsonrpc2.StringID(v), true
	case int64:
		return jsonrpc2.Int64ID(v), true
	case float64:
		if v == float64(int64(v)) {
			return jsonrpc2.Int64ID(int64(v)), true
		}
	}
	return jsonrpc2.ID{}, false
}
