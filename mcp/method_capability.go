package mcp

import "strings"

// Every row of a method table names the capability its method belongs to
// (serverMethods, clientMethods; an extension's methods belong to
// capabilities.extensions[id]). The dispatch step of each side serves a
// request only when its side declares that capability now, as its
// server/discover or initialize result (server) or its capabilities
// (client) say; otherwise the request fails with -32601 (method not
// found), as the specification's MethodNotFoundError describes: "calling
// prompts/list when the prompts capability was not advertised".
//
// "Now" matters: a server declares tools, prompts, resources and
// completions as soon as it has some, so a server that gains its first
// prompt serves prompts/list from then on, in every protocol revision.
// Rows without a capability are so on purpose: the lifecycle (initialize,
// ping, server/discover) belongs to no capability; subscriptions/listen
// carries the notifications of several (tools, prompts and resources list
// changes, resource updates, tasks), and which of them a stream gets is
// settled per member of its filter, in its acknowledgement, rather than by
// refusing the request; notifications get no answer, so there is no error
// to give them. On
// the client, the input requests of a 2026-07-28 input-required result
// (answerInput) are not refused here either: a request for input the
// client cannot give already fails the call with its handler's error.

// noServerCapabilities stands for ServerOptions without Capabilities.
var noServerCapabilities ServerCapabilities

// declares reports whether the server declares capability now (a row's
// capability name: "tools", "resources.subscribe", "extensions.<id>"),
// as s.capabilities() would say, without building them.
func (s *Server) declares(capability string) bool {
	o := s.opts.Capabilities
	if o == nil {
		o = &noServerCapabilities
	}
	switch capability {
	case "tools":
		return o.Tools != nil || s.tools.len() > 0
	case "prompts":
		return o.Prompts != nil || s.prompts.len() > 0
	case "resources":
		return o.Resources != nil || s.resources.len() > 0 || s.templates.len() > 0 || s.subscriptionsSupported()
	case "resources.subscribe":
		return (o.Resources != nil && o.Resources.Subscribe) || s.subscriptionsSupported()
	case "completions":
		return o.Completions != nil || s.hasCompleters()
	case "logging":
		return true // every server sends log messages (logging.go)
	case "tasks", "tasks.list", "tasks.cancel":
		// The tasks capability of 2025-11-25: the program's own, else the
		// one a server with task tools declares (task_legacy_server.go).
		if t := o.Tasks; t != nil {
			return capability == "tasks" || (capability == "tasks.list" && t.List != nil) || (capability == "tasks.cancel" && t.Cancel != nil)
		}
		return s.hasTaskTools()
	}
	if id, ok := strings.CutPrefix(capability, "extensions."); ok {
		return s.extensions.has(id) || o.Extensions[id] != nil
	}
	return false
}

// admit returns the row that serves a routed request in the revision of
// ss, or the -32601 error of a method the server does not support now:
// its row's enabled check fails or the server does not declare its
// capability.
func (s *Server) admit(method string, m *methodInfo[ServerSession], ss *ServerSession) (*methodInfo[ServerSession], error) {
	if m.alt != nil {
		m = m.at(ss.ProtocolVersion())
	}
	if m.enabled != nil && !m.enabled(ss) {
		return nil, newError(CodeMethodNotFound, "%s: %s", method, m.unsupported)
	}
	if m.capability != "" && !s.declares(m.capability) {
		return nil, capabilityNotDeclared(method, "server", m.capability)
	}
	return m, nil
}

// declares reports whether the client declares capability now ("roots",
// "sampling", "elicitation", "extensions.<id>").
func (c *Client) declares(capability string) bool {
	caps := c.caps.Load()
	switch capability {
	case "roots":
		return caps.Roots != nil
	case "sampling":
		return caps.Sampling != nil
	case "elicitation":
		return caps.Elicitation != nil
	}
	if id, ok := strings.CutPrefix(capability, "extensions."); ok {
		return caps.Extensions[id] != nil
	}
	return false
}

// admit returns the row that serves a request the client received in the
// revision of cs, or the -32601 error of a capability the client does
// not declare.
func (c *Client) admit(method string, m *methodInfo[ClientSession], cs *ClientSession) (*methodInfo[ClientSession], error) {
	if m.alt != nil {
		m = m.at(cs.version)
	}
	if m.capability != "" && !c.declares(m.capability) {
		return nil, capabilityNotDeclared(method, "client", m.capability)
	}
	return m, nil
}

// capabilityNotDeclared is the -32601 error of a request for a method
// whose capability side does not declare.
func capabilityNotDeclared(method, side, capability string) error {
	return newError(CodeMethodNotFound, "method not found: %s needs the %s capability, which this %s does not declare", method, capability, side)
}
