package mcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
)

// A methodInfo is one row of a side's method table: how to make the
// method's params, how to serve it, the protocol revisions it exists in
// and what it needs. Rows are made once and never changed.
type methodInfo[S ClientSession | ServerSession] struct {
	newParams    func() any
	handle       func(ctx context.Context, session *S, params any) (any, error)
	notification bool
	methodSpec[S]
	// alt, if set, is the row of an added method that shares this row's
	// name in other protocol revisions (see splitRow); this row is then the
	// protocol's, with a handle that serves each revision from its row.
	alt *methodInfo[S]
}

// A methodSpec is the part of a method's row that is not about types.
type methodSpec[S ClientSession | ServerSession] struct {
	// since and until are the first and last protocol revisions the method
	// exists in; empty means unbounded.
	since, until string
	// beforeInit allows the method before the connection settled its
	// protocol (ping).
	beforeInit bool
	// capability names the capability the method belongs to (for example
	// "tools", "resources.subscribe", "extensions.<id>"), or "" for none.
	// A request is served only while its side declares it (admit).
	capability string
	// enabled, if set, reports whether the session's side supports the
	// method now; if not, the request fails with -32601 and unsupported.
	enabled     func(*S) bool
	unsupported string
	// validate, if set, checks the decoded params for members the method
	// requires; its error is a -32602 error.
	validate func(params any) error
	// longLived exempts the method's requests from the in-flight bound
	// (MethodOptions.LongLived).
	longLived bool
}

// Common revision ranges of methods.
const (
	lastHandshakeVersion = Version20251125 // the last revision with initialize
	firstPerRequestMeta  = Version20260728 // the first revision without it
)

// existsIn reports whether the method is part of protocol version.
func (m *methodSpec[S]) existsIn(version string) bool {
	return (m.since == "" || version >= m.since) && (m.until == "" || version <= m.until)
}

// existsIn reports whether the method is part of protocol version, in
// this row or in its alternative.
func (m *methodInfo[S]) existsIn(version string) bool {
	return m.methodSpec.existsIn(version) || (m.alt != nil && m.alt.methodSpec.existsIn(version))
}

// at returns the row that serves the method at protocol version: m, or
// its alternative when only that exists in version.
func (m *methodInfo[S]) at(version string) *methodInfo[S] {
	if m.alt != nil && !m.methodSpec.existsIn(version) && m.alt.methodSpec.existsIn(version) {
		return m.alt
	}
	return m
}

// splitRow returns the row of a method the protocol defines (builtin) in
// some revisions and an added method (added) defines in others, such as
// tasks/get: in 2025-11-25 a core method, since 2026-07-28 the tasks
// extension's. Params are decoded before the revision of a request is
// known, so both must have the same params type; their revision ranges
// must not overlap.
func splitRow[S ClientSession | ServerSession](builtin, added *methodInfo[S]) (*methodInfo[S], error) {
	disjoint := (builtin.until != "" && added.since > builtin.until) || (added.until != "" && builtin.since > added.until)
	switch {
	case !disjoint:
		return nil, errors.New("the protocol defines it in revisions the added method exists in (set MethodOptions.Since or Until)")
	case builtin.notification != added.notification:
		return nil, errors.New("the protocol's method and the added one differ in kind (request, notification)")
	case reflect.TypeOf(builtin.newParams()) != reflect.TypeOf(added.newParams()):
		return nil, fmt.Errorf("the added method's params must be of the protocol's type %T", builtin.newParams())
	}
	row := &methodInfo[S]{newParams: builtin.newParams, notification: builtin.notification, methodSpec: builtin.methodSpec, alt: added}
	row.handle = func(ctx context.Context, s *S, params any) (any, error) {
		if v := sessionRevision(s); !builtin.methodSpec.existsIn(v) && added.methodSpec.existsIn(v) {
			return added.handle(ctx, s, params)
		}
		return builtin.handle(ctx, s, params)
	}
	return row, nil
}

// sessionRevision returns the protocol revision a session serves.
func sessionRevision[S ClientSession | ServerSession](s *S) string {
	switch x := any(s).(type) {
	case *ServerSession:
		return x.ProtocolVersion()
	case *ClientSession:
		return x.version
	}
	return ""
}

// check runs the method's check of required params, if it has one: a
// failure is a -32602 (invalid params) error.
func (m *methodSpec[S]) check(params any) error {
	if m.validate == nil {
		return nil
	}
	err := m.validate(params)
	if err == nil {
		return nil
	}
	var werr *JSONRPCError
	if errors.As(err, &werr) {
		return err
	}
	return newError(CodeInvalidParams, "%v", err)
}

// requestMethod builds the row of a request with typed params and result.
func requestMethod[S ClientSession | ServerSession, P, R any](h func(*S, context.Context, *P) (*R, error), spec methodSpec[S]) *methodInfo[S] {
	return &methodInfo[S]{
		newParams: func() any { return new(P) },
		handle: func(ctx context.Context, s *S, params any) (any, error) {
			res, err := h(s, ctx, params.(*P))
			if err != nil {
				return nil, err
			}
			if res == nil {
				return nil, errors.New("handler returned no result")
			}
			return res, nil
		},
		methodSpec: spec,
	}
}

// notificationMethod builds the row of a notification.
func notificationMethod[S ClientSession | ServerSession, P any](h func(*S, context.Context, *P), spec methodSpec[S]) *methodInfo[S] {
	return &methodInfo[S]{
		newParams:    func() any { return new(P) },
		notification: true,
		handle: func(ctx context.Context, s *S, params any) (any, error) {
			h(s, ctx, params.(*P))
			return nil, nil
		},
		methodSpec: spec,
	}
}

// A Method is a request or notification method that a Server or Client
// handles beyond the ones the protocol defines, such as an extension's:
// its name, typed params and result, handler, and the protocol revisions
// it exists in. Make one with [NewServerMethod], [NewServerNotification],
// [NewClientMethod] or [NewClientNotification] and add it with
// [Server.AddExtension] or [Client.AddExtension] (an extension's methods)
// or with [Server.AddMethods] or [Client.AddMethods]. The SDK decodes its
// params, routes it, runs middleware and the handler and encodes its
// result as it does for the protocol's own methods.
type Method[S ClientSession | ServerSession] struct {
	name string
	info *methodInfo[S]
}

// withCapability returns a copy of m's row that belongs to capability.
func (m *Method[S]) withCapability(capability string) *Method[S] {
	info := *m.info
	info.capability = capability
	return &Method[S]{name: m.name, info: &info}
}

// Name returns the method's name.
func (m *Method[S]) Name() string { return m.name }

// MethodOptions configure a Method. A nil *MethodOptions means defaults.
type MethodOptions struct {
	// Since and Until are the first and last protocol revisions the method
	// exists in (for example Version20260728); empty means unbounded.
	// Requests at another revision fail with -32601.
	Since, Until string
	// Validate, if set, checks the decoded params before the handler runs;
	// an error is sent as a -32602 (invalid params) error.
	Validate func(params any) error
	// LongLived marks a request that stays open as a stream of
	// notifications for as long as the client wants them, such as the
	// Events extension's events/stream: it is not counted against
	// ServerOptions.MaxInFlight (the bound on a session's requests handled
	// at once), so that a client may hold many such streams and still make
	// calls. The method bounds these requests itself. Server methods only.
	LongLived bool
}

func (o *MethodOptions) spec() methodSpec[ServerSession] {
	if o == nil {
		return methodSpec[ServerSession]{}
	}
	return methodSpec[ServerSession]{since: o.Since, until: o.Until, validate: o.Validate, longLived: o.LongLived}
}

func (o *MethodOptions) clientSpec() methodSpec[ClientSession] {
	s := o.spec()
	return methodSpec[ClientSession]{since: s.since, until: s.until, validate: s.validate}
}

// NewServerMethod returns a request method a server serves with handler.
// P is the params type: a struct, which should have a Meta field (as the
// protocol's params types do) so that 2026-07-28 requests carry their
// per-request metadata. The handler returns a result or an error; a
// *JSONRPCError keeps its code, any other error is an internal error.
func NewServerMethod[P, R any](name string, handler func(context.Context, *ServerSession, *P) (*R, error), opts *MethodOptions) *Method[ServerSession] {
	h := func(ss *ServerSession, ctx context.Context, p *P) (*R, error) { return handler(ctx, ss, p) }
	return &Method[ServerSession]{name: name, info: requestMethod(h, opts.spec())}
}

// NewServerNotification returns a notification method a server handles
// with handler.
func NewServerNotification[P any](name string, handler func(context.Context, *ServerSession, *P), opts *MethodOptions) *Method[ServerSession] {
	h := func(ss *ServerSession, ctx context.Context, p *P) { handler(ctx, ss, p) }
	return &Method[ServerSession]{name: name, info: notificationMethod(h, opts.spec())}
}

// NewClientMethod returns a request method a client serves with handler.
func NewClientMethod[P, R any](name string, handler func(context.Context, *ClientSession, *P) (*R, error), opts *MethodOptions) *Method[ClientSession] {
	h := func(cs *ClientSession, ctx context.Context, p *P) (*R, error) { return handler(ctx, cs, p) }
	return &Method[ClientSession]{name: name, info: requestMethod(h, opts.clientSpec())}
}

// NewClientNotification returns a notification method a client handles
// with handler.
func NewClientNotification[P any](name string, handler func(context.Context, *ClientSession, *P), opts *MethodOptions) *Method[ClientSession] {
	h := func(cs *ClientSession, ctx context.Context, p *P) { handler(ctx, cs, p) }
	return &Method[ClientSession]{name: name, info: notificationMethod(h, opts.clientSpec())}
}

// ErrMethodDefined is the panic value of AddMethods given a method the
// protocol defines in a revision the added method exists in.
var ErrMethodDefined = errors.New("mcp: method is defined by the protocol")

// addedMethods is a side's table of added methods: a map replaced, never
// changed, when methods are added, so lookups take no lock.
type addedMethods[S ClientSession | ServerSession] struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*methodInfo[S]]
}

// add adds methods, which must not be in builtin.
func (a *addedMethods[S]) add(builtin map[string]*methodInfo[S], methods []*Method[S]) {
	a.mu.Lock()
	defer a.mu.Unlock()
	next := make(map[string]*methodInfo[S])
	if old := a.m.Load(); old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	for _, m := range methods {
		if m == nil || m.name == "" {
			panic("mcp: AddMethods: nil method or empty name")
		}
		info := m.info
		if b := builtin[m.name]; b != nil {
			row, err := splitRow(b, info)
			if err != nil {
				panic(fmt.Errorf("%w: %s: %v", ErrMethodDefined, m.name, err))
			}
			info = row
		}
		next[m.name] = info
	}
	a.m.Store(&next)
}

// lookup returns the row of method: the protocol's, else an added one. A
// protocol method that exists in some revisions only may have been
// extended to others by an added method (splitRow).
func (a *addedMethods[S]) lookup(builtin map[string]*methodInfo[S], method string) *methodInfo[S] {
	m := builtin[method]
	if m != nil && m.since == "" && m.until == "" {
		return m
	}
	if added := a.m.Load(); added != nil {
		if x := (*added)[method]; x != nil {
			return x
		}
	}
	return m
}

// AddMethods adds request and notification methods beyond the protocol's
// to the server, replacing added methods of the same names. A method may
// take the name of a protocol method in revisions the protocol does not
// have it in (see [MethodOptions]), with the same params type; otherwise
// AddMethods panics with [ErrMethodDefined] for a method the protocol
// defines. Methods of an extension are better added with
// [Server.AddExtension], which also declares the extension.
func (s *Server) AddMethods(methods ...*Method[ServerSession]) {
	s.methods.add(serverMethods, methods)
}

// AddMethods adds request and notification methods beyond the protocol's
// to the client, replacing added methods of the same names. The rules of
// [Server.AddMethods] apply; methods of an extension are better added with
// [Client.AddExtension].
func (c *Client) AddMethods(methods ...*Method[ClientSession]) {
	c.methods.add(clientMethods, methods)
}
