package auth

import (
	"slices"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// ScopeRules say which scopes a request needs: scopes for the whole
// endpoint, plus scopes for one JSON-RPC method, one tool, one prompt or
// one resource. A request needs the union of every rule that applies to
// it; a client lacking any of them gets 403 insufficient_scope naming them
// all, so that it can step up in one authorization.
type ScopeRules struct {
	// Endpoint scopes are needed by every request.
	Endpoint []string
	// Methods maps a JSON-RPC method ("tools/list") to its scopes.
	Methods map[string][]string
	// Tools maps a tool name to the scopes tools/call of it needs.
	Tools map[string][]string
	// Prompts maps a prompt name to the scopes prompts/get of it needs.
	Prompts map[string][]string
	// Resources maps a resource URI to the scopes resources/read and
	// resources/subscribe of it need.
	Resources map[string][]string
	// Func, if set, adds scopes for a request by its method and the name
	// (tool or prompt) or URI (resource) it acts on, which is empty for
	// other methods. Use it for rules the maps cannot say, such as URI
	// prefixes.
	Func func(method, name string) []string
}

// perOperation reports whether any rule depends on the request's method.
func (sr *ScopeRules) perOperation() bool {
	return len(sr.Methods) > 0 || len(sr.Tools) > 0 || len(sr.Prompts) > 0 || len(sr.Resources) > 0 || sr.Func != nil
}

// clone returns a copy of sr that shares no slice or map with it.
func (sr ScopeRules) clone() ScopeRules {
	cl := func(m map[string][]string) map[string][]string {
		if m == nil {
			return nil
		}
		c := make(map[string][]string, len(m))
		for k, v := range m {
			c[k] = slices.Clone(v)
		}
		return c
	}
	return ScopeRules{Endpoint: slices.Clone(sr.Endpoint), Methods: cl(sr.Methods), Tools: cl(sr.Tools),
		Prompts: cl(sr.Prompts), Resources: cl(sr.Resources), Func: sr.Func}
}

// every returns every scope the rules name, without duplicates (an empty
// non-nil slice if none), or nil when Func may add others.
func (sr *ScopeRules) every() []string {
	if sr.Func != nil {
		return nil
	}
	all := appendNew([]string{}, sr.Endpoint)
	for _, m := range []map[string][]string{sr.Methods, sr.Tools, sr.Prompts, sr.Resources} {
		for _, scopes := range m {
			all = appendNew(all, scopes)
		}
	}
	return all
}

// add appends to dst the scopes the operation (method, name) needs beyond
// the endpoint's, without duplicates.
func (sr *ScopeRules) add(dst []string, method, name string) []string {
	dst = appendNew(dst, sr.Methods[method])
	switch method {
	case mcp.MethodCallTool:
		dst = appendNew(dst, sr.Tools[name])
	case mcp.MethodGetPrompt:
		dst = appendNew(dst, sr.Prompts[name])
	case mcp.MethodReadResource, mcp.MethodSubscribe, mcp.MethodUnsubscribe:
		dst = appendNew(dst, sr.Resources[name])
	}
	if sr.Func != nil {
		dst = appendNew(dst, sr.Func(method, name))
	}
	return dst
}

// appendNew appends the scopes of src that dst lacks.
func appendNew(dst, src []string) []string {
	for _, s := range src {
		if s != "" && !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// missingScopes reports whether granted lacks any of required, using
// implies (nil: exact match) to account for scope hierarchies.
func missingScopes(granted, required []string, implies func(granted, required string) bool) bool {
	for _, req := range required {
		if !hasScope(granted, req, implies) {
			return true
		}
	}
	return false
}

func hasScope(granted []string, req string, implies func(granted, required string) bool) bool {
	for _, g := range granted {
		if g == req || (implies != nil && implies(g, req)) {
			return true
		}
	}
	return false
}

// parseScope splits a space-separated "scope" value (RFC 6749 section
// 3.3) into scopes.
func parseScope(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Fields(s)
}
