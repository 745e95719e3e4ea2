package jsonschema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/gomcp/sdk/jsonschema"
)

// suiteSchemas returns the group schemas of some suite files, as seeds.
func suiteSchemas(f *testing.F, files ...string) [][]byte {
	var out [][]byte
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(suiteRoot, "tests", "draft2020-12", name))
		if err != nil {
			f.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			f.Fatal(err)
		}
		for _, g := range groups {
			out = append(out, g.Schema)
		}
	}
	return out
}

var noLoader = func(u *url.URL) (*jsonschema.Schema, error) { return nil, errors.New("no remote schemas") }

// FuzzResolve unmarshals, resolves and round-trips arbitrary schemas, and
// validates a few instances against them. Nothing may panic or hang, and a
// schema must mean the same after a round trip through JSON.
func FuzzResolve(f *testing.F) {
	for _, s := range suiteSchemas(f, "ref.json", "dynamicRef.json", "unevaluatedProperties.json",
		"anchor.json", "items.json", "pattern.json", "enum.json", "format.json") {
		f.Add(s)
	}
	f.Add([]byte(toolSchemaText))
	f.Add([]byte(`{"$ref": "#"}`))
	f.Add([]byte(`{"properties": {"a": {"$ref": "#/properties/a"}}}`))
	instances := [][]byte{[]byte(`{}`), []byte(`[1,"a",{"b":null}]`), []byte(`"x"`), []byte(`1.5`), []byte(`null`),
		[]byte(validArgs), []byte(`{"foo": [1, {"bar": "baz"}]}`)}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		opts := &jsonschema.ResolveOptions{Loader: noLoader, AssertFormat: true}
		rs, err := s.Resolve(opts)
		out, merr := json.Marshal(&s)
		if merr != nil {
			t.Fatalf("Marshal: %v", merr)
		}
		var s2 jsonschema.Schema
		if err := json.Unmarshal(out, &s2); err != nil {
			t.Fatalf("Unmarshal of Marshal output %s: %v", out, err)
		}
		rs2, err2 := s2.Resolve(opts)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Resolve: %v; after a round trip: %v", err, err2)
		}
		if err != nil {
			return
		}
		for _, in := range instances {
			e1 := rs.ValidateJSON(in)
			e2 := rs2.ValidateJSON(in)
			if (e1 == nil) != (e2 == nil) {
				t.Fatalf("%s on %s: %v; after a round trip (%s): %v", data, in, e1, out, e2)
			}
			if e1 != nil && e2 != nil && e1.Error() != e2.Error() && !errors.Is(e1, jsonschema.ErrInvalidJSON) {
				// Messages may differ only in their order of keywords
				// (Marshal writes keywords in its own order), not in count.
				var v1, v2 *jsonschema.ValidationError
				if errors.As(e1, &v1) && errors.As(e2, &v2) && len(v1.Details) != len(v2.Details) {
					t.Fatalf("%s on %s: %d errors; after a round trip: %d", data, in, len(v1.Details), len(v2.Details))
				}
			}
		}
	})
}

// fuzzSchemas are the schemas FuzzValidate checks instances against.
var fuzzSchemas = []string{
	toolSchemaText,
	`{"type": ["integer", "string"], "minimum": 1, "maximum": 1e10, "multipleOf": 0.5, "maxLength": 3}`,
	`{"items": {"$ref": "#"}, "uniqueItems": true, "contains": {"const": 1}, "maxContains": 2}`,
	`{"properties": {"a": {"$ref": "#"}}, "patternProperties": {"^b": {"type": "number"}},
	  "additionalProperties": {"enum": [null, true, {"x": [1]}]}, "propertyNames": {"maxLength": 3}}`,
	`{"anyOf": [{"required": ["x"]}, {"items": false}], "unevaluatedProperties": false,
	  "if": {"properties": {"x": {"const": 1}}}, "then": {"properties": {"y": true}}}`,
	`{"prefixItems": [{"type": "string"}], "unevaluatedItems": {"type": "boolean"}, "format": "date-time"}`,
}

// FuzzValidate validates arbitrary JSON against fixed schemas in every way
// the package offers, which must agree with each other.
func FuzzValidate(f *testing.F) {
	for i := range fuzzSchemas {
		for _, in := range []string{`{}`, validArgs, invalidArgs, `[1,[1],[[1]]]`, `{"a":{"a":{"b":2}},"c":null}`,
			`"2025-06-18T00:00:00Z"`, `12345678901234567890`, `1.5e300`, `["x", true, false]`, `{"x":1,"y":2}`} {
			f.Add(uint8(i), []byte(in))
		}
	}
	compiled := make([]*jsonschema.Resolved, len(fuzzSchemas))
	for i, text := range fuzzSchemas {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			f.Fatal(err)
		}
		rs, err := s.Resolve(&jsonschema.ResolveOptions{AssertFormat: true, MaxErrors: -1})
		if err != nil {
			f.Fatal(err)
		}
		compiled[i] = rs
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		rs := compiled[int(which)%len(compiled)]
		errJSON := rs.ValidateJSON(data)
		if errors.Is(errJSON, jsonschema.ErrInvalidJSON) {
			if json.Valid(data) && utf8.Valid(data) && !hasDuplicateKeys(data) {
				t.Fatalf("ValidateJSON rejects %q, which is valid JSON: %v", data, errJSON)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("ValidateJSON accepts invalid JSON %q", data)
		}
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("decode %q: %v", data, err)
		}
		errNum := rs.Validate(v)
		if (errJSON == nil) != (errNum == nil) {
			t.Fatalf("%q: ValidateJSON: %v; Validate (json.Number): %v", data, errJSON, errNum)
		}
		if rs.ValidJSON(data) != (errJSON == nil) || rs.Valid(v) != (errNum == nil) {
			t.Fatalf("%q: Valid disagrees with Validate", data)
		}
		if errJSON != nil && rs.ValidateJSON(data).Error() != errJSON.Error() {
			t.Fatalf("%q: errors differ between runs", data)
		}
		var f64 any
		if json.Unmarshal(data, &f64) == nil {
			rs.Validate(f64) // must not panic; may differ for numbers beyond float64
		}
	})
}

// hasDuplicateKeys reports whether some object in the JSON text data has
// two members with the same (unescaped) name.
func hasDuplicateKeys(data []byte) bool {
	d := json.NewDecoder(bytes.NewReader(data))
	var check func() bool
	check = func() bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				k, _ := d.Token()
				key, _ := k.(string)
				if seen[key] {
					return true
				}
				seen[key] = true
				if check() {
					return true
				}
			}
			d.Token()
		case json.Delim('['):
			for d.More() {
				if check() {
					return true
				}
			}
			d.Token()
		}
		return false
	}
	return check()
}
