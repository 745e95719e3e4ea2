package jsonschema_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

// A schema loaded from JSON and marshaled again keeps its keywords, values
// and property order.
func TestSchemaRoundTrip(t *testing.T) {
	tests := []string{
		`true`,
		`false`,
		`{}`,
		`{"properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":true}}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/s","$anchor":"top","$ref":"#/$defs/a","$defs":{"a":{"type":"object"}}}`,
		`{"allOf":[{"minimum":1}],"if":{"type":"string"},"then":{"minLength":1},"else":false}`,
		`{"const":null}`,
		`{"enum":[]}`,
		`{"enum":[1,"a",null,{"b":[1.5]}]}`,
		`{"type":["string","null"]}`,
		`{"items":[{"type":"string"}],"additionalItems":false}`,
		`{"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
		`{"maximum":18446744073709551615,"exclusiveMinimum":0.1}`,
		`{"x-custom":{"nested":[1,2]},"unknown/keyword":{"type":"integer"}}`,
		`{"default":{"a":[1,2]},"examples":["x",2],"deprecated":true,"readOnly":true}`,
		`{"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true},"$dynamicAnchor":"meta"}`,
		`{"minLength":0,"uniqueItems":false}`,
	}
	for _, text := range tests {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		out, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if !sameJSON(t, text, string(out)) {
			t.Errorf("round trip changed the schema:\n in: %s\nout: %s", text, out)
		}
	}
}

// sameJSON compares two JSON texts as values, except that "uniqueItems":
// false, which means the same as its absence, may be dropped.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	a = strings.ReplaceAll(a, `,"uniqueItems":false`, "")
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

func TestPropertyOrderKept(t *testing.T) {
	text := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"boolean"}}}`
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(&s)
	if string(out) != text {
		t.Errorf("got  %s\nwant %s", out, text)
	}
	var names []string
	for name := range s.Props() {
		names = append(names, name)
	}
	if !slices.Equal(names, []string{"zeta", "alpha", "mid"}) {
		t.Errorf("Props order %v", names)
	}
	// Properties added later come after, sorted.
	s.Properties["beta"] = &jsonschema.Schema{}
	s.Properties["aardvark"] = &jsonschema.Schema{}
	names = names[:0]
	for name := range s.Props() {
		names = append(names, name)
	}
	if !slices.Equal(names, []string{"zeta", "alpha", "mid", "aardvark", "beta"}) {
		t.Errorf("Props order after additions %v", names)
	}
}

// Marshaling leaves out empty keywords; boolean schemas are booleans.
func TestMarshalClean(t *testing.T) {
	tests := []struct {
		s    *jsonschema.Schema
		want string
	}{
		{&jsonschema.Schema{}, `{}`},
		{jsonschema.True(), `true`},
		{jsonschema.False(), `false`},
		{&jsonschema.Schema{Type: "string", Description: "a name"}, `{"description":"a name","type":"string"}`},
		{&jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"b": {}, "a": {}},
			AdditionalProperties: jsonschema.False()}, `{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false}`},
		{&jsonschema.Schema{Minimum: jsonschema.Ptr(0.0), MaxLength: jsonschema.Ptr(3)}, `{"minimum":0,"maxLength":3}`},
		{&jsonschema.Schema{Const: jsonschema.Ptr[any](nil)}, `{"const":null}`},
		{&jsonschema.Schema{Enum: []any{"a", 1}, Required: []string{}}, `{"enum":["a",1]}`},
		{&jsonschema.Schema{Types: []string{"string", "null"}}, `{"type":["string","null"]}`},
		{&jsonschema.Schema{Extra: map[string]any{"x-b": 1, "x-a": true}}, `{"x-a":true,"x-b":1}`},
		{&jsonschema.Schema{Default: json.RawMessage(`"open"`)}, `{"default":"open"}`},
		{&jsonschema.Schema{Pattern: "<a&b>"}, `{"pattern":"\u003ca\u0026b\u003e"}`},
	}
	for _, tc := range tests {
		out, err := json.Marshal(tc.s)
		if err != nil {
			t.Errorf("%+v: %v", tc.s, err)
			continue
		}
		if string(out) != tc.want {
			t.Errorf("got  %s\nwant %s", out, tc.want)
		}
	}
	bad := jsonschema.False()
	bad.Type = "string"
	if _, err := json.Marshal(bad); err == nil {
		t.Error("marshaling False() with keywords succeeded")
	}
	if _, err := json.Marshal(&jsonschema.Schema{Default: json.RawMessage(`{`)}); err == nil {
		t.Error("marshaling an invalid default succeeded")
	}
}

func TestUnmarshalErrors(t *testing.T) {
	for _, text := range []string{
		`1`, `"x"`, `[]`, `null`,
		`{"type":1}`, `{"minLength":-1}`, `{"minLength":1.5}`, `{"properties":[]}`,
		`{"required":[1]}`, `{"allOf":{}}`, `{"a":1,"a":2}`, `{"title":"x"`, "{\"title\":\"\xff\"}",
		`{"items":[1]}`, `{"$id":5}`, `{"maximum":1e999}`,
	} {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(text), &s); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", text)
		}
	}
}

func TestUnmarshalValues(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"enum":[12345678901234567890, 1.5, "a"], "x-n": 7, "items":[true]}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Enum[0] != json.Number("12345678901234567890") || s.Enum[1] != json.Number("1.5") || s.Enum[2] != "a" {
		t.Errorf("Enum = %#v", s.Enum)
	}
	if s.Extra["x-n"] != json.Number("7") {
		t.Errorf("Extra = %#v", s.Extra)
	}
	if v, ok := s.ItemsArray[0].Boolean(); !ok || !v {
		t.Errorf("items[0] is not the boolean schema true")
	}
}

// Numbers beyond float64's precision compare exactly when the instance is
// JSON text or json.Number.
func TestExactNumbers(t *testing.T) {
	rs := mustCompile(t, `{"maximum": 10, "exclusiveMinimum": 0.30000000000000000001}`)
	tests := []struct {
		instance any
		valid    bool
	}{
		{json.Number("10.000000000000000001"), false},
		{json.Number("10"), true},
		{json.Number("0.30000000000000000001"), false},
		{json.Number("0.30000000000000000002"), true},
		{10.000000000000000001, true}, // a float64: exactly 10
	}
	for _, tc := range tests {
		if err := rs.Validate(tc.instance); (err == nil) != tc.valid {
			t.Errorf("%v: %v, want valid %v", tc.instance, err, tc.valid)
		}
	}
	mul := mustCompile(t, `{"multipleOf": 0.01}`)
	for _, v := range []any{19.99, json.Number("19.99"), 0.07} {
		if err := mul.Validate(v); err != nil {
			t.Errorf("%v multipleOf 0.01: %v", v, err)
		}
	}
}

func TestClone(t *testing.T) {
	var s jsonschema.Schema
	text := `{"properties":{"a":{"enum":[{"x":1}]}},"required":["a"],"minimum":1,"x":{"y":[1]}}`
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	c.Properties["a"].Enum[0].(map[string]any)["x"] = 2
	c.Required[0] = "b"
	*c.Minimum = 5
	c.Extra["x"].(map[string]any)["y"] = nil
	out, _ := json.Marshal(&s)
	if !sameJSON(t, text, string(out)) {
		t.Errorf("modifying a clone changed the original: %s", out)
	}
}
