package strictjson_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/strictjson"
)

type point struct {
	X int    `json:"x"`
	Y int    `json:"y,omitzero"`
	S string `json:"s,omitempty"`
}

// The rules of the package doc, one row each.
func TestUnmarshalRules(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name    string
		in      string
		want    point
		wantErr error // nil: accepted; errAny: refused with some error
	}{
		{name: "member names match exactly", in: `{"x":1,"y":2}`, want: point{X: 1, Y: 2}},
		{name: "unknown members are ignored", in: `{"x":1,"z":{"w":[3]}}`, want: point{X: 1}},
		{name: "names match case-sensitively", in: `{"X":5,"x":1}`, want: point{X: 1}},
		{name: "a duplicate name is refused", in: `{"x":1,"x":2}`, wantErr: strictjson.ErrDuplicateName},
		{name: "a duplicate unknown name is refused", in: `{"x":1,"z":1,"z":2}`, wantErr: strictjson.ErrDuplicateName},
		{name: "invalid UTF-8 is refused", in: "{\"s\":\"\xff\"}", wantErr: errAny},
		{name: "MaxDepth levels are accepted", in: `{"z":` + deep(strictjson.MaxDepth-1) + `}`, want: point{}},
		{name: "deeper than MaxDepth is refused", in: `{"z":` + deep(strictjson.MaxDepth) + `}`, wantErr: strictjson.ErrTooDeep},
		{name: "a wrong type is refused", in: `{"x":"1"}`, wantErr: errAny},
		{name: "trailing data is refused", in: `{"x":1} {}`, wantErr: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got point
			err := strictjson.Unmarshal([]byte(tt.in), &got)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Unmarshal(%q): %v", tt.in, err)
			case tt.wantErr == nil && got != tt.want:
				t.Errorf("Unmarshal(%q) = %+v, want %+v", tt.in, got, tt.want)
			case tt.wantErr != nil && err == nil:
				t.Fatalf("Unmarshal(%q) accepted as %+v, want an error", tt.in, got)
			case tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("Unmarshal(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
		})
	}
}

var errAny = errors.New("any error")

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{name: "map keys are sorted", in: map[string]int{"b": 2, "a": 1, "c": 3}, want: `{"a":1,"b":2,"c":3}`},
		{name: "HTML characters are kept", in: "<a&b>", want: `"<a&b>"`},
		{name: "struct tags are honoured", in: point{X: 1}, want: `{"x":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := strictjson.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal(%v) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzUnmarshal checks that any input gives a value or an error, never a
// panic, and that what is accepted survives a round trip through Marshal:
// the encoding decodes again, to the same value, and encodes to the same
// bytes.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"x":1}`, `[[[[`, `{"x":"\"{"}`, `{"a":1,"a":2}`, `"\u00e9<>"`, `{"b":[1,2.5,null,true],"a":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p point
		_ = strictjson.Unmarshal(data, &p)
		var v any
		if err := strictjson.Unmarshal(data, &v); err != nil {
			return
		}
		enc, err := strictjson.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal of an accepted value %#v: %v", v, err)
		}
		var again any
		if err := strictjson.Unmarshal(enc, &again); err != nil {
			t.Fatalf("Unmarshal(%s), the encoding of an accepted value: %v", enc, err)
		}
		if !reflect.DeepEqual(v, again) {
			t.Fatalf("round trip changed %#v into %#v", v, again)
		}
		enc2, err := strictjson.Marshal(again)
		if err != nil || string(enc2) != string(enc) {
			t.Fatalf("encoding is not stable: %s then %s (%v)", enc, enc2, err)
		}
	})
}
