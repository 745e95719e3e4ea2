package jsonschema

import "strings"

// A ValidationError reports why an instance does not validate. It lists the
// failures in a deterministic order: the order in which the schema's
// keywords are evaluated, and within a keyword the order of the instance
// (document order for JSON text, sorted keys for Go maps).
type ValidationError struct {
	// Details lists the failures, at most ResolveOptions.MaxErrors of them.
	Details []Detail
	// Truncated is set when evaluation stopped at the limit, so more
	// failures may exist.
	Truncated bool
}

var _ error = (*ValidationError)(nil)

// A Detail is one validation failure.
type Detail struct {
	// InstanceLocation is the JSON Pointer of the failing value in the
	// instance ("" for the whole instance).
	InstanceLocation string
	// KeywordLocation is the JSON Pointer of the failing keyword along the
	// evaluation path from the root schema, through any $ref.
	KeywordLocation string
	// AbsoluteKeywordLocation is the absolute URI of the failing keyword:
	// its schema resource's URI (empty if it has none) and a JSON Pointer.
	AbsoluteKeywordLocation string
	// Keyword is the failing keyword, such as "maximum" or "required".
	Keyword string
	// Message is a one-line description, such as "must be <= 100 (got 500)".
	Message string
}

// String formats d as one line: its instance path without the leading slash,
// a colon, and the message; a failure of the whole instance is just the
// message. For example: `limit: must be <= 100 (got 500)`.
func (d Detail) String() string {
	if d.InstanceLocation == "" {
		return d.Message
	}
	return d.InstanceLocation[1:] + ": " + d.Message
}

// Error returns one line per failure (see Detail.String), suitable for
// returning to a language model as a tool error.
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, d := range e.Details {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	if e.Truncated {
		b.WriteString("\n(more errors not shown)")
	}
	return b.String()
}
