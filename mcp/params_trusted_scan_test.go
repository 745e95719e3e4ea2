package mcp

import (
	"reflect"
	"testing"
)

func TestTrustedObject(t *testing.T) {
	for _, tt := range []struct {
		in    string
		names []string
		ok    bool
	}{
		{`{}`, nil, true},
		{` { "a" : 1 , "b":"x\"}" ,"c":{"d":[1,"]"]},"e":true} `, []string{"a", "b", "c", "e"}, true},
		{`{"a":1}x`, []string{"a"}, false},
		{`{"a":1,}`, []string{"a"}, false},
		{`{,"a":1}`, nil, false},
		{`{"a\u0062":1}`, nil, false},
		{`{"a":}`, nil, false},
		{`{"a":[1,2}`, []string{"a"}, false}, // bracket kinds are not matched: validated input has them right
		{`{"a":"x`, nil, false},
		{`[1]`, nil, false},
		{``, nil, false},
	} {
		o, ok := newTrustedObject([]byte(tt.in))
		var names []string
		if ok {
			for {
				name, _, more := o.next()
				if !more {
					break
				}
				names = append(names, string(name))
			}
		}
		if !reflect.DeepEqual(names, tt.names) || o.ok != tt.ok {
			t.Errorf("%s: names %q ok %v, want %q %v", tt.in, names, o.ok, tt.names, tt.ok)
		}
	}
}

// FuzzTrustedObject: on any input, even unvalidated, reading ends without
// a panic and every value lies within the input.
func FuzzTrustedObject(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[{"c":"\""}]}`, `{"a":"`, `{"a":[`, `{"a"`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, ok := newTrustedObject(data)
		if !ok {
			return
		}
		for range len(data) + 1 {
			_, v, more := o.next()
			if !more {
				return
			}
			if len(v) == 0 {
				t.Fatalf("%q: an empty value", data)
			}
		}
		t.Fatalf("%q: more members than bytes", data)
	})
}
