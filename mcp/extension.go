package mcp

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Extensions turned on after construction: AddExtension declares an
// extension in the side's capabilities and adds its methods in one call.

// AddExtension turns the extension id (a vendor prefix, a slash, a name:
// "com.example/notes") on for the server: it declares it in the server's
// capabilities, capabilities.extensions[id] = settings, and adds methods
// as [Server.AddMethods] does, as methods that belong to the extension.
// Nil settings mean {} (supported, no settings); other settings must
// encode as a JSON object. Calling it again for id replaces the settings
// and adds the methods given. Settings given here win over an entry for
// id in ServerOptions.Capabilities.
//
// It is meant to be called before the server is connected, as an
// extension package's Enable function does. It is safe at any time: the
// methods are served at once, on every session; clients see the
// declaration in the next server/discover result (2026-07-28) or
// initialize result (earlier revisions). A session that completed
// initialize before the call keeps the capabilities it was sent: the
// protocol has no way to tell it of new ones.
//
// It panics if id has no vendor prefix or name, if settings do not encode
// as a JSON object, or as AddMethods does: these are programming errors.
func (s *Server) AddExtension(id string, settings any, methods ...*Method[ServerSession]) {
	settings = checkExtension(id, settings)
	s.methods.add(serverMethods, extensionMethods(id, methods))
	s.extensions.set(id, settings)
}

// AddExtension turns the extension id on for the client: it declares it
// in the client's capabilities, capabilities.extensions[id] = settings,
// and adds methods (requests and notifications the server sends) as
// [Client.AddMethods] does. The rules of [Server.AddExtension] apply;
// settings given here win over an entry for id in
// ClientOptions.Capabilities.
//
// It is meant to be called before Connect. It is safe at any time: the
// methods are served at once, and a 2026-07-28 session declares the
// extension from its next request on (each request carries the client's
// capabilities); a session that completed initialize (earlier revisions)
// keeps the capabilities it declared there.
func (c *Client) AddExtension(id string, settings any, methods ...*Method[ClientSession]) {
	settings = checkExtension(id, settings)
	c.methods.add(clientMethods, extensionMethods(id, methods))
	c.extensions.set(id, settings)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.caps.Store(c.capabilities())
}

// AddCapability declares a top-level member of the server's
// capabilities that the protocol does not define, beside tools and
// extensions: capabilities.name = settings (nil means {}). It exists for
// extensions whose prototypes declared themselves so before the
// extensions map, and whose deployed clients still read that member (the
// Events extension declares "events" so, beside its extensions entry).
// An extension is otherwise declared with [Server.AddExtension]. Settings
// given here win over an entry in ServerOptions.Capabilities.Other; the
// rules of AddExtension on timing apply.
//
// It panics if name is empty or a member the protocol defines
// ("tools", "extensions", ...) or settings do not encode as a JSON
// object: these are programming errors.
func (s *Server) AddCapability(name string, settings any) {
	if name == "" || protocolCapabilities[name] {
		panic(fmt.Sprintf("mcp: AddCapability: %q is not a member the protocol leaves free", name))
	}
	if settings == nil {
		settings = map[string]any{}
	}
	if !isJSONObject(settings) {
		panic(fmt.Sprintf("mcp: AddCapability: settings of %s must encode as a JSON object (got %T)", name, settings))
	}
	s.topLevel.set(name, settings)
}

// protocolCapabilities are the members of the server's capabilities the
// protocol defines, in any revision.
var protocolCapabilities = map[string]bool{
	"experimental": true, "extensions": true, "logging": true, "completions": true,
	"prompts": true, "resources": true, "tools": true, "tasks": true,
}

// extensionMethods returns copies of methods that belong to extension id.
func extensionMethods[S ClientSession | ServerSession](id string, methods []*Method[S]) []*Method[S] {
	out := make([]*Method[S], len(methods))
	for i, m := range methods {
		if m == nil || m.name == "" {
			panic("mcp: AddExtension: nil method or empty name")
		}
		out[i] = m.withCapability(extensionCapability(id))
	}
	return out
}

// extensionCapability is the capability name of extension id in method
// tables.
func extensionCapability(id string) string { return "extensions." + id }

// An extensionSet holds the extensions a side turned on with
// AddExtension: a map replaced, never changed, so readers take no lock.
type extensionSet struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]any]
}

// checkExtension returns the settings to declare for extension id: {}
// for nil. It panics if id is not of the form vendor-prefix/name or the
// settings do not encode as a JSON object.
func checkExtension(id string, settings any) any {
	if err := checkExtensionID(id); err != nil {
		panic("mcp: AddExtension: " + err.Error())
	}
	if settings == nil {
		return map[string]any{}
	}
	if !isJSONObject(settings) {
		panic(fmt.Sprintf("mcp: AddExtension: settings of %s must encode as a JSON object (got %T)", id, settings))
	}
	return settings
}

// isJSONObject reports whether v encodes as a JSON object.
func isJSONObject(v any) bool {
	b, err := strictjson.Marshal(v)
	return err == nil && len(b) > 0 && b[0] == '{'
}

// set declares extension id with settings, checked by checkExtension.
func (e *extensionSet) set(id string, settings any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	next := map[string]any{id: settings}
	if old := e.m.Load(); old != nil {
		for k, v := range *old {
			if k != id {
				next[k] = v
			}
		}
	}
	e.m.Store(&next)
}

// has reports whether extension id was turned on.
func (e *extensionSet) has(id string) bool {
	m := e.m.Load()
	return m != nil && (*m)[id] != nil
}

// merge returns base with the extensions turned on added (replacing
// base's entries of the same ids): base itself when there are none, else a
// new map, since base may be the caller's options.
func (e *extensionSet) merge(base map[string]any) map[string]any {
	m := e.m.Load()
	if m == nil {
		return base
	}
	out := maps.Clone(base)
	if out == nil {
		out = make(map[string]any, len(*m))
	}
	maps.Copy(out, *m)
	return out
}

// checkExtensionID checks that id has the form vendor-prefix/name.
func checkExtensionID(id string) error {
	i := strings.LastIndexByte(id, '/')
	if i <= 0 || i == len(id)-1 || strings.ContainsAny(id, " \t\r\n") {
		return fmt.Errorf("extension identifier %q is not of the form vendor-prefix/name", id)
	}
	return nil
}

// ClientExtension returns the settings the client declared for the
// extension id (its capabilities' extensions[id]): those sent with this
// request in 2026-07-28, those of initialize in earlier revisions. ok is
// false if the client did not declare the extension. Settings that came
// over the wire are a map[string]any; DecodeExtensionSettings gives a
// typed value.
func (ss *ServerSession) ClientExtension(id string) (settings any, ok bool) {
	settings = ss.ClientCapabilities().Extensions[id]
	return settings, settings != nil
}

// ServerExtension returns the settings the server declared for the
// extension id, in its server/discover or initialize result. ok is false
// if the server did not declare the extension.
func (cs *ClientSession) ServerExtension(id string) (settings any, ok bool) {
	settings = cs.ServerCapabilities().Extensions[id]
	return settings, settings != nil
}

// DecodeExtensionSettings decodes extension settings, as ClientExtension
// and ServerExtension return them, into v, a pointer to a struct or map,
// as JSON: member names must match v's fields exactly.
func DecodeExtensionSettings(settings, v any) error {
	b, err := strictjson.Marshal(settings)
	if err != nil {
		return fmt.Errorf("mcp: encoding extension settings: %w", err)
	}
	if err := strictjson.Unmarshal(b, v); err != nil {
		return fmt.Errorf("mcp: decoding extension settings: %w", err)
	}
	return nil
}
