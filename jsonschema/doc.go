// Package jsonschema implements JSON Schema (draft 2020-12, and draft-07):
// a Schema type to write, infer or load schemas, compilation with Resolve,
// and validation of JSON values with Validate and ValidateJSON.
//
// It uses only the standard library, passes the whole official
// JSON-Schema-Test-Suite for draft 2020-12 and draft-07 (required, optional
// and format tests, the latter with ResolveOptions.AssertFormat, and
// draft-07's content tests with ResolveOptions.AssertContent), and is
// built for the hot path of an MCP server: validating a tool call's
// arguments usually allocates nothing.
//
// # Schemas
//
// A [Schema] has a field for every keyword. Build one by hand, load one
// with encoding/json, or infer one from a Go type with [For]:
//
//	type Args struct {
//		City string `json:"city" jsonschema:"the city to look up"`
//		Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14"`
//	}
//	s, err := jsonschema.For[Args](nil)
//
// Schemas marshal to clean JSON (no empty keywords) and keep the order of
// their properties (see [Schema.Props]); unknown keywords are kept in
// Extra.
//
// # Compiling and validating
//
// [Schema.Resolve] compiles a schema once: it resolves $ref, $dynamicRef,
// $anchor and $id, loads remote schemas only through an explicit
// [ResolveOptions.Loader] (never the network or the file system by itself),
// and knows the draft 2020-12 and draft-07 meta-schemas. The dialect comes
// from $schema (draft 2020-12 when absent, or ResolveOptions.DefaultDialect);
// custom meta-schemas and $vocabulary are supported. Reference cycles that
// could never end are errors, and evaluation depth is bounded, so no schema
// makes validation hang or overflow the stack.
//
// The [Resolved] schema is immutable and safe for concurrent use:
//
//   - [Resolved.Validate] checks a Go value: what encoding/json decodes into
//     any (map[string]any, []any, float64, string, bool, nil), json.Number,
//     Go numbers, json.RawMessage, and (via json.Marshal) anything else.
//   - [Resolved.ValidateJSON] checks JSON text directly, without decoding it
//     into maps; the text must be strict JSON (no duplicate keys, valid
//     UTF-8), so what is validated is what a strict decoder will see.
//   - [Resolved.Valid] and [Resolved.ValidJSON] only report validity.
//   - [Resolved.ApplyDefaults] and [Resolved.ApplyDefaultsJSON] fill in
//     missing properties that have a default.
//
// Numbers keep their exact value: JSON text and json.Number instances are
// compared exactly (also beyond float64's precision), Go floats as float64.
//
// # Errors
//
// A failed validation returns a [*ValidationError] listing every failure, up
// to ResolveOptions.MaxErrors (10 by default), in a deterministic order. Each
// [Detail] has the instance location, the keyword location (through $ref)
// and a one-line message; Error() prints one line per failure, ready to be
// shown to a language model:
//
//	missing required property "name"
//	age: must be >= 0 (got -1)
//
// # Formats
//
// As draft 2020-12 specifies, format is an annotation unless
// ResolveOptions.AssertFormat is set (or a meta-schema uses the
// format-assertion vocabulary). Asserted formats: date-time, date, time,
// duration, email, idn-email, hostname, idn-hostname, ipv4, ipv6, uri,
// uri-reference, iri, iri-reference, uri-template, uuid, json-pointer,
// relative-json-pointer and regex; other formats are accepted. Checks are
// strict (RFC 3339, RFC 3986/3987, RFC 5321/6531, IDNA2008 with its
// contextual and Bidi rules, ECMA-262 regular expression syntax).
//
// # Regular expressions
//
// pattern and patternProperties are ECMA-262 regular expressions. Patterns
// made of character classes, literals and quantifiers run on a small
// linear-time matcher; others are translated to Go's regexp syntax (\s, \cX,
// \u escapes, \p{Letter} names, the meaning of "."). Lookaround and
// backreferences, which Go's regexp lacks, make Resolve fail.
package jsonschema
