package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ---- Cancellation and progress ----

// CancelledParams are the params of notifications/cancelled.
type CancelledParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// RequestID is the JSON-RPC ID of the request to cancel: a string or an
	// integer; after decoding a string or an int64. It is optional only for
	// tasks (2025-11-25).
	RequestID any `json:"requestId,omitzero"`
	// Reason describes why the request was cancelled.
	Reason string `json:"reason,omitempty"`
}

// UnmarshalJSON decodes the params of notifications/cancelled; a numeric
// request ID becomes an int64.
func (p *CancelledParams) UnmarshalJSON(data []byte) error {
	type plain CancelledParams
	var w struct {
		plain
		RequestID json.RawMessage `json:"requestId,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	id, err := decodeID("requestId", w.RequestID)
	if err != nil {
		return err
	}
	*p = CancelledParams(w.plain)
	p.RequestID = id
	return nil
}

// ProgressNotificationParams are the params of notifications/progress.
type ProgressNotificationParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ProgressToken is the token from the request's _meta: a string or an
	// integer; after decoding a string or an int64.
	ProgressToken any `json:"progressToken"`
	// Progress is the progress so far; it increases with every
	// notification.
	Progress float64 `json:"progress"`
	// Total is the total amount of work, if known.
	Total float64 `json:"total,omitzero"`
	// Message describes the current progress (2025-03-26).
	Message string `json:"message,omitempty"`
}

// UnmarshalJSON decodes the params of notifications/progress; a numeric
// progress token becomes an int64.
func (p *ProgressNotificationParams) UnmarshalJSON(data []byte) error {
	type plain ProgressNotificationParams
	var w struct {
		plain
		ProgressToken json.RawMessage `json:"progressToken"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	token, err := decodeID(MetaKeyProgressToken, w.ProgressToken)
	if err != nil {
		return err
	}
	*p = ProgressNotificationParams(w.plain)
	p.ProgressToken = token
	return nil
}
