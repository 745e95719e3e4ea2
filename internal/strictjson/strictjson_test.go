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

// checkDepthByteByByte is the plain definition CheckDepth must agree with:
// every byte in turn, a backslash in a string skipping the next one.
func checkDepthByteByByte(data []byte, max int) bool {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > max {
				return false
			}
		case '}', ']':
			depth--
		}
	}
	return true
}

var depthCases = []string{
	`{"a":[1,{"b":[]}]}`,
	`[[["\\"]]]`,
	`[["\\\"[[[["]]`,
	`["\\\\"[[[]]]]`,
	`"\`,
	`"abc`,
	`[[[`,
	`]]][[[[`,
	`{"a\"[[[[[[":"}}}[[[["}`,
}

func TestCheckDepthAgreesWithDefinition(t *testing.T) {
	for _, s := range depthCases {
		for max := 0; max < 5; max++ {
			got := CheckDepth([]byte(s), max) == nil
			if want := checkDepthByteByByte([]byte(s), max); got != want {
				t.Errorf("CheckDepth(%s, %d) passes = %v, want %v", s, max, got, want)
			}
		}
	}
}

func FuzzCheckDepth(f *testing.F) {
	for _, s := range depthCases {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		max = max % 8
		got := CheckDepth(data, max) == nil
		if want := checkDepthByteByByte(data, max); got != want {
			t.Fatalf("CheckDepth(%q, %d) passes = %v, want %v", data, max, got, want)
		}
	})
}

func BenchmarkCheckDepth(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`)
	for b.Loop() {
		if err := CheckDepth(data, DefaultMaxDepth); err != nil {
			b.Fatal(err)
		}
	}
}
