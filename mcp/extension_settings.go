package mcp

import (
	"fmt"

	"github.com/gomcp/sdk/internal/strictjson"
)

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
