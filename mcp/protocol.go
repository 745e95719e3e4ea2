package mcp

import ()

// This file holds the params and results of every method and notification
// of every supported protocol version, and the objects they carry. Fields
// that a later version added are optional and omitted when zero; each
// doc comment names the version that introduced the type or field when it
// is not 2024-11-05.

// Role is the sender or recipient of a message or piece of content.
type Role string

// Roles.
const (
	// RoleUser is the user side of a conversation.
	RoleUser Role = "user"
	// RoleAssistant is the model side of a conversation.
	RoleAssistant Role = "assistant"
)

// LoggingLevel is the severity of a log message, as in syslog (RFC 5424).
type LoggingLevel string

// Logging levels, from least to most severe.
const (
	// LoggingLevelDebug is detailed debugging information.
	LoggingLevelDebug LoggingLevel = "debug"
	// LoggingLevelInfo is a general informational message.
	LoggingLevelInfo LoggingLevel = "info"
	// LoggingLevelNotice is a normal but significant event.
	LoggingLevelNotice LoggingLevel = "notice"
	// LoggingLevelWarning is a warning condition.
	LoggingLevelWarning LoggingLevel = "warning"
	// LoggingLevelError is an error condition.
	LoggingLevelError LoggingLevel = "error"
	// LoggingLevelCritical is a critical condition.
	LoggingLevelCritical LoggingLevel = "critical"
	// LoggingLevelAlert means action must be taken immediately.
	LoggingLevelAlert LoggingLevel = "alert"
	// LoggingLevelEmergency means the system is unusable.
	LoggingLevelEmergency LoggingLevel = "emergency"
)

// Values of the resultType member of results (2026-07-28). A result without
// resultType, from an earlier version, counts as [ResultTypeComplete].
const (
	// ResultTypeComplete marks a final result.
	ResultTypeComplete = "complete"
	// ResultTypeInputRequired marks an [InputRequiredResult].
	ResultTypeInputRequired = "input_required"
)

// Values of the cacheScope member of cacheable results (2026-07-28).
const (
	// CacheScopePublic means the result holds no user-specific data and any
	// cache may share it.
	CacheScopePublic = "public"
	// CacheScopePrivate means the result may be cached only within the same
	// authorization context.
	CacheScopePrivate = "private"
)

// Implementation identifies the software of a client or server.
type Implementation struct {
	// Name is the programmatic name of the software.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Version is the version of the software.
	Version string `json:"version"`
	// Description describes the software (2025-11-25).
	Description string `json:"description,omitempty"`
	// WebsiteURL is the URL of the software's website (2025-11-25).
	WebsiteURL string `json:"websiteUrl,omitempty"`
	// Icons are icons of the software (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// Icon is an image a client may display for an object (2025-11-25).
type Icon struct {
	// Src is an HTTP(S) or data: URI of the image.
	Src string `json:"src"`
	// MIMEType is the media type of the image, if not implied by Src.
	MIMEType string `json:"mimeType,omitempty"`
	// Sizes lists the sizes the image is suitable for, such as "48x48" or
	// "any".
	Sizes []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark" if the icon is meant for that theme.
	Theme string `json:"theme,omitempty"`
}
