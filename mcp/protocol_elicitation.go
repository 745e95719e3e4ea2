package mcp

import ()

// ---- Elicitation ----

// Values of [ElicitParams.Mode] (2025-11-25).
const (
	// ElicitationModeForm collects structured data through a form (the
	// default).
	ElicitationModeForm = "form"
	// ElicitationModeURL sends the user to a URL for a sensitive
	// interaction.
	ElicitationModeURL = "url"
)

// Values of [ElicitResult.Action].
const (
	// ElicitActionAccept means the user submitted the requested data.
	ElicitActionAccept = "accept"
	// ElicitActionDecline means the user declined.
	ElicitActionDecline = "decline"
	// ElicitActionCancel means the user dismissed the request.
	ElicitActionCancel = "cancel"
)

// ElicitParams are the params of elicitation/create, a request to collect
// information from the user through the client (2025-06-18). One struct
// covers both modes: form mode (Mode empty or "form") uses RequestedSchema;
// URL mode (Mode "url", 2025-11-25) uses URL and, in 2025-11-25 only,
// ElicitationID.
type ElicitParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Mode is ElicitationModeForm, ElicitationModeURL, or empty for form
	// mode (2025-11-25).
	Mode string `json:"mode,omitempty"`
	// Message tells the user what is being asked and why.
	Message string `json:"message"`
	// RequestedSchema is the schema of the form (form mode).
	RequestedSchema *ElicitationSchema `json:"requestedSchema,omitzero"`
	// URL is the URL to send the user to (URL mode).
	URL string `json:"url,omitempty"`
	// ElicitationID identifies a URL-mode elicitation (2025-11-25 only).
	ElicitationID string `json:"elicitationId,omitempty"`
	// Task asks the client to run the request as a task (2025-11-25).
	Task *TaskMetadata `json:"task,omitzero"`
}

// ElicitResult is the result of elicitation/create (2025-06-18).
type ElicitResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused: this result travels from client to server, or
	// inside inputResponses in 2026-07-28.
	ResultType string `json:"resultType,omitempty"`
	// Action is ElicitActionAccept, ElicitActionDecline or
	// ElicitActionCancel.
	Action string `json:"action"`
	// Content is the submitted data when Action is accept in form mode:
	// strings, numbers, booleans and (2025-11-25) lists of strings.
	Content map[string]any `json:"content,omitempty"`
}

// ElicitationCompleteParams are the params of
// notifications/elicitation/complete (2025-11-25 only).
type ElicitationCompleteParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ElicitationID identifies the URL-mode elicitation that completed.
	ElicitationID string `json:"elicitationId"`
}

// ElicitationSchema is the requestedSchema of a form-mode elicitation
// (2025-06-18): a flat JSON Schema object whose properties are primitive
// schemas, so that clients can render it as a form.
type ElicitationSchema struct {
	// Schema is the "$schema" URI, if any (2025-11-25).
	Schema string `json:"$schema,omitempty"`
	// Type is always "object".
	Type string `json:"type"`
	// Properties maps each field name to its schema.
	Properties map[string]*PrimitiveSchema `json:"properties"`
	// Required lists the names of required fields.
	Required []string `json:"required,omitempty"`
}

// PrimitiveSchema is the schema of one field of an [ElicitationSchema]. It
// is a distinguished union of the primitive schemas the protocol allows,
// told apart by Type and by which fields are set:
//
//   - string: Type "string", with MinLength, MaxLength and Format.
//   - number: Type "number" or "integer", with Minimum and Maximum.
//   - boolean: Type "boolean".
//   - single-select enum: Type "string" with Enum (untitled options),
//     OneOf (titled options, 2025-11-25) or Enum and EnumNames (legacy).
//   - multi-select enum: Type "array" with Items, MinItems and MaxItems
//     (2025-11-25).
//
// Default holds a string, a float64, a bool or (for multi-select) a
// []any of strings after decoding.
type PrimitiveSchema struct {
	// Type is "string", "number", "integer", "boolean" or "array".
	Type string `json:"type"`
	// Title is a display name for the field.
	Title string `json:"title,omitempty"`
	// Description describes the field.
	Description string `json:"description,omitempty"`
	// Default is the default value of the field (2025-11-25).
	Default any `json:"default,omitzero"`

	// Format is the format of a string: "email", "uri", "date" or
	// "date-time".
	Format string `json:"format,omitempty"`
	// MinLength is the minimum length of a string.
	MinLength *int `json:"minLength,omitzero"`
	// MaxLength is the maximum length of a string.
	MaxLength *int `json:"maxLength,omitzero"`

	// Minimum is the minimum of a number.
	Minimum *float64 `json:"minimum,omitzero"`
	// Maximum is the maximum of a number.
	Maximum *float64 `json:"maximum,omitzero"`

	// Enum lists the allowed values of an untitled single-select enum.
	Enum []string `json:"enum,omitempty"`
	// EnumNames lists display names for Enum, in order (legacy titled enum).
	EnumNames []string `json:"enumNames,omitempty"`
	// OneOf lists the options of a titled single-select enum (2025-11-25).
	OneOf []EnumOption `json:"oneOf,omitempty"`

	// Items describes the options of a multi-select enum (2025-11-25).
	Items *EnumItems `json:"items,omitzero"`
	// MinItems is the minimum number of selected options (2025-11-25).
	MinItems *int `json:"minItems,omitzero"`
	// MaxItems is the maximum number of selected options (2025-11-25).
	MaxItems *int `json:"maxItems,omitzero"`
}

// EnumOption is one titled option of an enum schema (2025-11-25).
type EnumOption struct {
	// Const is the value of the option.
	Const string `json:"const"`
	// Title is the display name of the option.
	Title string `json:"title"`
}

// EnumItems is the items schema of a multi-select enum (2025-11-25): either
// Type "string" with Enum (untitled options) or AnyOf (titled options).
type EnumItems struct {
	// Type is "string" for untitled options.
	Type string `json:"type,omitempty"`
	// Enum lists the untitled options.
	Enum []string `json:"enum,omitempty"`
	// AnyOf lists the titled options.
	AnyOf []EnumOption `json:"anyOf,omitempty"`
}
