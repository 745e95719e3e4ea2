package mcp

import ()

// ---- Logging ----

// SetLoggingLevelParams are the params of logging/setLevel (2024-11-05 to
// 2025-11-25).
type SetLoggingLevelParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the minimum level of messages the client wants.
	Level LoggingLevel `json:"level"`
}

// LoggingMessageParams are the params of notifications/message, a log
// message from server to client.
type LoggingMessageParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the severity of the message.
	Level LoggingLevel `json:"level"`
	// Logger is the name of the logger, if any.
	Logger string `json:"logger,omitempty"`
	// Data is the message: any JSON value.
	Data any `json:"data"`
}
