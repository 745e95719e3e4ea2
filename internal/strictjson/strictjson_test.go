package strictjson

import (
	"errors"
	"strings"
	"testing"
)

type point struct {
	X int `json:"x"`
	Y int `json:"y,omitzero"`
}

func TestUnmarshalStrict(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    point
		wantErr error
	}{
		{name: "exact names", in: `{"x":1,"y":2}`, want: point{1, 2}},
		{name: "unknown member ignored", in: `{"x":1,"z":3}`, want: point{X: 1}},
		{name: "case differs: not matched", in: `{"X":5,"x":1}`, want: point{X: 1}},
		{name: "duplicate name", in: `{"x":1,"x":2}`, wantErr: ErrDuplicateName},
		{name: "too deep", in: `{"x":1,"a":` + strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1) + `}`, wantErr: ErrTooDeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got point
			err := Unmarshal([]byte(tt.in), &got)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Unmarshal(%s) error = %v, want %v", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal(%s): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Unmarshal(%s) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestCheckDepthIgnoresStrings(t *testing.T) {
	s := `{"a":"` + strings.Repeat("[{", 200) + `\"` + `"}`
	if err := CheckDepth([]byte(s), 2); err != nil {
		t.Fatalf("brackets inside a string counted: %v", err)
	}
}

func TestMarshalDeterministic(t *testing.T) {
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	for range 10 {
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `{"a":1,"b":2,"c":3}` {
			t.Fatalf("Marshal = %s", b)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(`{"x":1}`))
	f.Add([]byte(`[[[[`))
	f.Add([]byte(`{"x":"\"{"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		_ = Unmarshal(data, &v)
		var p point
		_ = Unmarshal(data, &p)
	})
}
