package jsonschema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

// The error text is what a language model sees: one line per failure,
// naming the property path.
func TestValidationErrorMessages(t *testing.T) {
	rs := mustCompile(t, toolSchemaText)
	want := strings.Join([]string{
		`state: must be one of ["open","closed","all"] (got "bogus")`,
		`limit: must be <= 100 (got 500)`,
		`labels/1: expected string, got integer`,
		`sort: unexpected property "extra"`,
	}, "\n")
	err := rs.ValidateJSON([]byte(invalidArgs))
	if err == nil || err.Error() != want {
		t.Errorf("ValidateJSON error:\n%v\nwant:\n%s", err, want)
	}
	// Validate on decoded maps checks members in sorted key order.
	wantSorted := strings.Join([]string{
		`labels/1: expected string, got integer`,
		`limit: must be <= 100 (got 500)`,
		`sort: unexpected property "extra"`,
		`state: must be one of ["open","closed","all"] (got "bogus")`,
	}, "\n")
	err = rs.Validate(mustDecode(t, []byte(invalidArgs)))
	if err == nil || err.Error() != wantSorted {
		t.Errorf("Validate error:\n%v\nwant:\n%s", err, wantSorted)
	}
}

func TestValidationErrorDetails(t *testing.T) {
	rs := mustCompile(t, toolSchemaText)
	err := rs.ValidateJSON([]byte(invalidArgs))
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %T, want *ValidationError", err)
	}
	want := []jsonschema.Detail{
		{"/state", "/properties/state/enum", "#/properties/state/enum", "enum", `must be one of ["open","closed","all"] (got "bogus")`},
		{"/limit", "/properties/limit/maximum", "#/properties/limit/maximum", "maximum", "must be <= 100 (got 500)"},
		{"/labels/1", "/properties/labels/items/type", "#/properties/labels/items/type", "type", "expected string, got integer"},
		{"/sort", "/properties/sort/additionalProperties", "#/properties/sort/additionalProperties", "additionalProperties", `unexpected property "extra"`},
	}
	if len(ve.Details) != len(want) {
		t.Fatalf("got %d details, want %d: %v", len(ve.Details), len(want), ve)
	}
	for i := range want {
		if ve.Details[i] != want[i] {
			t.Errorf("detail %d:\n got %#v\nwant %#v", i, ve.Details[i], want[i])
		}
	}
}

func TestKeywordLocationThroughRef(t *testing.T) {
	rs := mustCompile(t, `{
		"$id": "https://example.com/s.json",
		"properties": {"age": {"$ref": "#/$defs/age"}},
		"$defs": {"age": {"type": "integer", "minimum": 0}}
	}`)
	err := rs.Validate(map[string]any{"age": -1})
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) || len(ve.Details) != 1 {
		t.Fatalf("got %v", err)
	}
	d := ve.Details[0]
	if d.String() != "age: must be >= 0 (got -1)" {
		t.Errorf("String() = %q", d.String())
	}
	if d.KeywordLocation != "/properties/age/$ref/minimum" {
		t.Errorf("KeywordLocation = %q", d.KeywordLocation)
	}
	if d.AbsoluteKeywordLocation != "https://example.com/s.json#/$defs/age/minimum" {
		t.Errorf("AbsoluteKeywordLocation = %q", d.AbsoluteKeywordLocation)
	}
}

func TestMessages(t *testing.T) {
	tests := []struct {
		schema, instance, want string
	}{
		{`{"type": "object", "required": ["name"]}`, `{}`, `missing required property "name"`},
		{`{"properties": {"age": {"minimum": 0}}}`, `{"age": -3}`, `age: must be >= 0 (got -3)`},
		{`{"exclusiveMaximum": 10}`, `10`, `must be < 10 (got 10)`},
		{`{"multipleOf": 0.5}`, `0.3`, `must be a multiple of 0.5 (got 0.3)`},
		{`{"minLength": 2}`, `"a"`, `must be at least 2 characters long (got 1)`},
		{`{"maxLength": 1}`, `"ab"`, `must be at most 1 character long (got 2)`},
		{`{"pattern": "^a"}`, `"b"`, `must match the pattern "^a"`},
		{`{"const": {"a": 1}}`, `{"a": 2}`, `must be {"a":1}`},
		{`{"minItems": 1}`, `[]`, `must have at least 1 item (got 0)`},
		{`{"maxProperties": 1}`, `{"a":1,"b":2}`, `must have at most 1 property (got 2)`},
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a":1}`, `property "a" requires property "b"`},
		{`{"contains": {"type": "string"}}`, `[1]`, `must contain at least 1 item matching the contains schema (found 0)`},
		{`{"not": {"type": "string"}}`, `"x"`, `must not match the schema in "not"`},
		{`{"anyOf": [{"type": "string"}, {"type": "boolean"}]}`, `1`, `must match at least one of the anyOf schemas`},
		{`{"oneOf": [{"type": "integer"}, {"minimum": 0}]}`, `1`, `must match exactly one of the oneOf schemas (matched 0 and 1)`},
		{`{"propertyNames": {"maxLength": 2}}`, `{"abc": 1}`, `invalid property name "abc"`},
		{`{"properties": {"x": false}}`, `{"x": 1}`, `x: not allowed`},
		{`{"type": ["string", "null"]}`, `1`, `expected null or string, got integer`},
		{`{"format": "email"}`, `"nope"`, `must be a valid email (got "nope")`},
		{`{"items": {"type": "integer"}}`, `[1, 2.5]`, `1: expected integer, got number`},
		{`{"properties": {"a/b": {"type": "string"}}}`, `{"a/b": 1}`, `a~1b: expected string, got integer`},
	}
	for _, tc := range tests {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(&jsonschema.ResolveOptions{AssertFormat: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		err = rs.ValidateJSON([]byte(tc.instance))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s on %s:\n got %v\nwant %s", tc.schema, tc.instance, err, tc.want)
		}
	}
}

// Errors come out in the same order every time, even from Go maps.
func TestValidationErrorsDeterministic(t *testing.T) {
	rs := mustCompile(t, toolSchemaText)
	v := mustDecode(t, []byte(invalidArgs))
	first := rs.Validate(v).Error()
	for i := 0; i < 100; i++ {
		if got := rs.Validate(v).Error(); got != first {
			t.Fatalf("run %d:\n%s\nfirst run:\n%s", i, got, first)
		}
	}
}

func TestMaxErrors(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"items": {"type": "string"}}`), &s); err != nil {
		t.Fatal(err)
	}
	instance := []byte(`[1, 2, 3, 4, 5]`)
	for _, tc := range []struct {
		max, want int
		truncated bool
	}{{0, 5, false}, {1, 1, true}, {3, 3, true}, {-1, 5, false}} {
		rs, err := s.Resolve(&jsonschema.ResolveOptions{MaxErrors: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		var ve *jsonschema.ValidationError
		if !errors.As(rs.ValidateJSON(instance), &ve) {
			t.Fatal("no ValidationError")
		}
		if len(ve.Details) != tc.want || ve.Truncated != tc.truncated {
			t.Errorf("MaxErrors %d: %d details, truncated %v; want %d, %v", tc.max, len(ve.Details), ve.Truncated, tc.want, tc.truncated)
		}
	}
	many := strings.Repeat("1,", 30) + "1"
	rs, _ := s.Resolve(nil)
	var ve *jsonschema.ValidationError
	if errors.As(rs.ValidateJSON([]byte("["+many+"]")), &ve); len(ve.Details) != 10 || !ve.Truncated {
		t.Errorf("default limit: %d details, truncated %v; want 10, true", len(ve.Details), ve.Truncated)
	}
	if !strings.HasSuffix(ve.Error(), "(more errors not shown)") {
		t.Errorf("truncated error does not say so: %s", ve.Error())
	}
}

func TestValid(t *testing.T) {
	rs := mustCompile(t, toolSchemaText)
	if !rs.Valid(mustDecode(t, []byte(validArgs))) || !rs.ValidJSON([]byte(validArgs)) {
		t.Error("valid instance reported invalid")
	}
	if rs.Valid(mustDecode(t, []byte(invalidArgs))) || rs.ValidJSON([]byte(invalidArgs)) {
		t.Error("invalid instance reported valid")
	}
	if rs.ValidJSON([]byte(`{`)) || rs.Valid(math.NaN()) {
		t.Error("non-JSON reported valid")
	}
}

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Validate accepts the values encoding/json produces, json.Number, Go
// numbers, and (through json.Marshal) any other Go value.
func TestValidateInstanceKinds(t *testing.T) {
	rs := mustCompile(t, `{"type": "object", "properties": {
		"n": {"type": "integer", "maximum": 10},
		"list": {"type": "array", "items": {"type": "string"}},
		"p": {"type": "object", "required": ["x"]}
	}}`)
	tests := []struct {
		name     string
		instance any
		valid    bool
	}{
		{"float64", map[string]any{"n": 3.0}, true},
		{"float64 fraction", map[string]any{"n": 3.5}, false},
		{"int", map[string]any{"n": 3}, true},
		{"int64 over", map[string]any{"n": int64(11)}, false},
		{"uint8", map[string]any{"n": uint8(7)}, true},
		{"uint64 huge", map[string]any{"n": uint64(math.MaxUint64)}, false},
		{"json.Number", map[string]any{"n": json.Number("10")}, true},
		{"json.Number 1e1", map[string]any{"n": json.Number("1e1")}, true},
		{"json.Number over", map[string]any{"n": json.Number("10.000000000000000001")}, false},
		{"[]string", map[string]any{"list": []string{"a", "b"}}, true},
		{"[]int", map[string]any{"list": []int{1}}, false},
		{"map[string]string", map[string]string{"x": "y"}, true},
		{"struct", map[string]any{"p": point{1, 2}}, true},
		{"pointer to struct", map[string]any{"p": &point{1, 2}}, true},
		{"json.RawMessage", json.RawMessage(`{"n": 12}`), false},
		{"nested RawMessage", map[string]any{"p": json.RawMessage(`{"x": 1}`)}, true},
		{"float32", map[string]any{"n": float32(0.1)}, false},
	}
	for _, tc := range tests {
		err := rs.Validate(tc.instance)
		if (err == nil) != tc.valid {
			t.Errorf("%s: Validate = %v, want valid %v", tc.name, err, tc.valid)
		}
	}
}

func TestValidateNotJSON(t *testing.T) {
	rs := mustCompile(t, `{}`)
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for _, v := range []any{math.NaN(), math.Inf(1), json.Number("1e"), make(chan int), cyclic, json.RawMessage(`{`)} {
		err := rs.Validate(v)
		var ve *jsonschema.ValidationError
		if err == nil || errors.As(err, &ve) {
			t.Errorf("Validate(%T) = %v, want a non-validation error", v, err)
		}
	}
}

func TestValidateJSONStrict(t *testing.T) {
	rs := mustCompile(t, `{}`)
	for _, in := range []string{
		``, `{`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `+1`, `"\x"`, "\"\x01\"", `{"a":1,"a":2}`,
		"\"\xff\"", `"\ud800"`, `[1] [2]`, `tru`, `nul`, `NaN`, `{"a" 1}`, `{1:2}`,
	} {
		err := rs.ValidateJSON([]byte(in))
		if !errors.Is(err, jsonschema.ErrInvalidJSON) {
			t.Errorf("ValidateJSON(%q) = %v, want ErrInvalidJSON", in, err)
		}
	}
	for _, in := range []string{`0`, `-0.5e+10`, `"\u00e9\ud83d\ude00"`, ` [ {} , [] ] `, `{"a":{"a":1}}`} {
		if err := rs.ValidateJSON([]byte(in)); err != nil {
			t.Errorf("ValidateJSON(%q) = %v", in, err)
		}
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if err := rs.ValidateJSON([]byte(deep)); !errors.Is(err, jsonschema.ErrInvalidJSON) {
		t.Errorf("20000-deep array: %v, want ErrInvalidJSON", err)
	}
}

// Deep instances against recursive schemas end with an error, not a stack
// overflow.
func TestDeepRecursion(t *testing.T) {
	rs := mustCompile(t, `{"items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}}`)
	deep := strings.Repeat("[", 9000) + strings.Repeat("]", 9000)
	if err := rs.ValidateJSON([]byte(deep)); err != nil {
		t.Errorf("9000-deep array: %v", err)
	}
	loop := mustCompile(t, `{"$defs": {"a": {"$dynamicRef": "#a", "$dynamicAnchor": "a"}}, "$ref": "#/$defs/a"}`)
	done := make(chan error, 1)
	go func() { done <- loop.ValidateJSON([]byte(`1`)) }()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "too deeply") {
		t.Errorf("$dynamicRef loop: %v, want a depth error", err)
	}
}

func TestRefCycleIsAnError(t *testing.T) {
	for _, schema := range []string{
		`{"$ref": "#"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`,
	} {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Resolve(nil); !errors.Is(err, jsonschema.ErrRefCycle) {
			t.Errorf("%s: Resolve = %v, want ErrRefCycle", schema, err)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		schema string
		is     error
	}{
		{`{"$ref": "https://example.com/other.json"}`, jsonschema.ErrNoLoader},
		{`{"$ref": "#/$defs/missing"}`, jsonschema.ErrUnresolvedRef},
		{`{"$ref": "#nope"}`, jsonschema.ErrUnresolvedRef},
		{`{"$schema": "https://example.com/custom-meta"}`, jsonschema.ErrNoLoader},
		{`{"pattern": "(?=x)"}`, nil},
		{`{"type": "strin"}`, nil},
		{`{"multipleOf": 0}`, nil},
		{`{"$schema": "http://json-schema.org/draft-04/schema#"}`, nil},
	}
	for _, tc := range tests {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
			t.Fatal(err)
		}
		_, err := s.Resolve(nil)
		if err == nil {
			t.Errorf("%s: Resolve succeeded", tc.schema)
			continue
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: Resolve = %v, want %v", tc.schema, err, tc.is)
		}
	}
}

// A compiled schema may be used from many goroutines (run with -race).
func TestConcurrentValidate(t *testing.T) {
	rs := mustCompile(t, toolSchemaText)
	valid := mustDecode(t, []byte(validArgs))
	want := rs.Validate(mustDecode(t, []byte(invalidArgs))).Error()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if err := rs.Validate(valid); err != nil {
					t.Error(err)
					return
				}
				if err := rs.ValidateJSON([]byte(invalidArgs)); err == nil {
					t.Error("invalid accepted")
					return
				}
				if got := rs.Validate(mustDecodeNoT([]byte(invalidArgs))).Error(); got != want {
					t.Errorf("got %s", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func mustDecodeNoT(b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

// Format is an annotation by default and an assertion on request.
func TestAssertFormat(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"format": "date-time"}`), &s); err != nil {
		t.Fatal(err)
	}
	off, _ := s.Resolve(nil)
	on, _ := s.Resolve(&jsonschema.ResolveOptions{AssertFormat: true})
	if err := off.ValidateJSON([]byte(`"yesterday"`)); err != nil {
		t.Errorf("format asserted by default: %v", err)
	}
	if err := on.ValidateJSON([]byte(`"yesterday"`)); err == nil {
		t.Error("AssertFormat did not assert")
	}
	if err := on.ValidateJSON([]byte(`"2025-06-18T00:00:00Z"`)); err != nil {
		t.Error(err)
	}
}

func ExampleValidationError() {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {"age": {"type": "integer", "minimum": 0}},
		"required": ["name"]
	}`), &s); err != nil {
		panic(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rs.ValidateJSON([]byte(`{"age": -1}`)))
	// Output:
	// missing required property "name"
	// age: must be >= 0 (got -1)
}

// Validating a typical valid tool-argument object allocates nothing, from
// JSON text or from a decoded map.
func TestValidateAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	rs := mustCompile(t, toolSchemaText)
	data := []byte(validArgs)
	v := mustDecode(t, data)
	big := mustCompile(t, largeSchemaText())
	bigData := large100()
	for name, f := range map[string]func() error{
		"ValidateJSON":          func() error { return rs.ValidateJSON(data) },
		"Validate":              func() error { return rs.Validate(v) },
		"ValidateJSON large100": func() error { return big.ValidateJSON(bigData) },
	} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
		if allocs := testing.AllocsPerRun(100, func() { f() }); allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, allocs)
		}
	}
}

// Nil entries in Go-built schemas mean the schema true.
func TestNilSubschemas(t *testing.T) {
	s := &jsonschema.Schema{
		Properties:        map[string]*jsonschema.Schema{"a": nil},
		PatternProperties: map[string]*jsonschema.Schema{"^b": nil},
		AllOf:             []*jsonschema.Schema{nil, {Type: "object"}},
		DependentSchemas:  map[string]*jsonschema.Schema{"a": nil},
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.ValidateJSON([]byte(`{"a": 1, "b": 2}`)); err != nil {
		t.Error(err)
	}
	if err := rs.ValidateJSON([]byte(`[]`)); err == nil {
		t.Error("allOf[1] not applied")
	}
	if _, err := json.Marshal(s); err != nil {
		t.Error(err)
	}
}

// Go schemas with pointer cycles resolve, validate and fail to marshal
// without hanging.
func TestPointerCycles(t *testing.T) {
	list := &jsonschema.Schema{Type: "array"}
	list.Items = list
	rs, err := list.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.ValidateJSON([]byte(`[[], [[]]]`)); err != nil {
		t.Error(err)
	}
	if err := rs.ValidateJSON([]byte(`[[1]]`)); err == nil {
		t.Error("nested 1 accepted")
	}
	if _, err := json.Marshal(list); err == nil {
		t.Error("Marshal of a pointer cycle succeeded")
	}
	loop := &jsonschema.Schema{}
	loop.AllOf = []*jsonschema.Schema{loop}
	if _, err := loop.Resolve(nil); !errors.Is(err, jsonschema.ErrRefCycle) {
		t.Errorf("allOf pointer loop: %v, want ErrRefCycle", err)
	}
}
