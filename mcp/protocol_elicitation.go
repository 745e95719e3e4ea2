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
