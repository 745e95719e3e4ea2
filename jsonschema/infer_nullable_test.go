package jsonschema_test

import (
	"encoding/json"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

type nullableArgs struct {
	Tags  []string       `json:"tags"`
	Opt   *int           `json:"opt"`
	Meta  map[string]int `json:"meta,omitempty"`
	Maybe []string       `json:"maybe" jsonschema:"nullable"`
	Note  *string        `json:"note" jsonschema:"description=a note,nullable"`
}

// Inferred schemas name a single type unless nullability is asked for,
// with ForOptions.Nullable or the nullable tag flag.
func TestForNullability(t *testing.T) {
	tests := []struct {
		name string
		opts *jsonschema.ForOptions
		want string
	}{
		{"default", nil, `{"type":"object","required":["tags","opt","maybe","note"],"properties":{` +
			`"tags":{"type":"array","items":{"type":"string"}},"opt":{"type":"integer"},` +
			`"meta":{"type":"object","additionalProperties":{"type":"integer"}},` +
			`"maybe":{"type":["array","null"],"items":{"type":"string"}},` +
			`"note":{"description":"a note","type":["string","null"]}},"additionalProperties":false}`},
		{"Nullable", &jsonschema.ForOptions{Nullable: true}, `{"type":"object","required":["tags","opt","maybe","note"],"properties":{` +
			`"tags":{"type":["array","null"],"items":{"type":"string"}},"opt":{"type":["integer","null"]},` +
			`"meta":{"type":"object","additionalProperties":{"type":"integer"}},` +
			`"maybe":{"type":["array","null"],"items":{"type":"string"}},` +
			`"note":{"description":"a note","type":["string","null"]}},"additionalProperties":false}`},
	}
	for _, tc := range tests {
		s, err := jsonschema.For[nullableArgs](tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(s)
		if string(out) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, out, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		opts *jsonschema.ForOptions
		want string
	}{
		{"[]int default", nil, `{"type":"array","items":{"type":"integer"}}`},
		{"[]int Nullable", &jsonschema.ForOptions{Nullable: true}, `{"type":["array","null"],"items":{"type":"integer"}}`},
	} {
		s, _ := jsonschema.For[[]int](tc.opts)
		if out, _ := json.Marshal(s); string(out) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, out, tc.want)
		}
	}
}

// A null where the default schema names one type does not validate; an
// empty value does.
func TestSingleTypeRejectsNull(t *testing.T) {
	s, err := jsonschema.For[nullableArgs](nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for doc, valid := range map[string]bool{
		`{"tags":[],"opt":1,"maybe":null,"note":null}`:          true,
		`{"tags":null,"opt":1,"maybe":[],"note":"x"}`:           false,
		`{"tags":[],"opt":null,"maybe":[],"note":"x"}`:          false,
		`{"tags":[],"opt":1,"maybe":[],"note":"x"}`:             true,
		`{"tags":[],"opt":1,"maybe":[],"note":"x","meta":null}`: false,
		`{"tags":["a"],"opt":1,"maybe":["b"],"note":""}`:        true,
	} {
		if err := rs.ValidateJSON([]byte(doc)); (err == nil) != valid {
			t.Errorf("%s: valid=%v, want %v (%v)", doc, err == nil, valid, err)
		}
	}
}
