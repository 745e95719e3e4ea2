package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/gomcp/sdk/internal/strictjson"
)

// The types of control envelopes: bodies with a top-level "type", signed
// and delivered like events.
const (
	// EnvelopeGap tells the client that events were missed between
	// refreshes; it carries a fresh cursor.
	EnvelopeGap = "gap"
	// EnvelopeTerminated tells the client that the subscription has ended;
	// it carries an error.
	EnvelopeTerminated = "terminated"
	// EnvelopeVerification is the challenge that confirms an endpoint
	// before any event is delivered to it.
	EnvelopeVerification = "verification"
)

// NewEnvelopeID returns a fresh webhook-id for an envelope of the given
// type: "msg_<type>_<random>", the random part 32 hex digits.
func NewEnvelopeID(envelopeType string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return "msg_" + envelopeType + "_" + hex.EncodeToString(b)
}

// randomToken returns n random bytes in unpadded URL-safe base64.
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// An EnvelopeError is the error of a terminated envelope, in the shape
// JSON-RPC errors have.
type EnvelopeError struct {
	// Code is the error code (for example Forbidden).
	Code int64 `json:"code"`
	// Message is a short description.
	Message string `json:"message"`
	// Data is the error's data as JSON, or nil.
	Data json.RawMessage `json:"data,omitempty"`
}

// gapEnvelope is the body of a gap envelope.
type gapEnvelope struct {
	Type   string `json:"type"`
	Cursor string `json:"cursor"`
}

// terminatedEnvelope is the body of a terminated envelope.
type terminatedEnvelope struct {
	Type  string         `json:"type"`
	Error *EnvelopeError `json:"error"`
}

// verificationEnvelope is the body of a verification challenge.
type verificationEnvelope struct {
	Type      string `json:"type"`
	Challenge string `json:"challenge"`
}

// GapBody returns the body of a gap envelope carrying cursor:
// {"type":"gap","cursor":"..."}. It fails if cursor is not valid UTF-8.
func GapBody(cursor string) ([]byte, error) {
	b, err := strictjson.Marshal(gapEnvelope{Type: EnvelopeGap, Cursor: cursor})
	if err != nil {
		return nil, fmt.Errorf("webhook: encoding a gap envelope: %w", err)
	}
	return b, nil
}

// TerminatedBody returns the body of a terminated envelope:
// {"type":"terminated","error":{...}}. It fails if e.Data is not JSON.
func TerminatedBody(e EnvelopeError) ([]byte, error) {
	b, err := strictjson.Marshal(terminatedEnvelope{Type: EnvelopeTerminated, Error: &e})
	if err != nil {
		return nil, fmt.Errorf("webhook: encoding a terminated envelope: %w", err)
	}
	return b, nil
}
