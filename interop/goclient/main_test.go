package main

import (
	"maps"
	"strings"
	"testing"
)

func TestParseKnown(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
	}{
		{"", map[string]string{}},
		{"progress=SDK bug (x): y", map[string]string{"progress": "SDK bug (x): y"}},
		{" a = r1 ;b=r=2;;c", map[string]string{"a": " r1 ", "b": "r=2"}},
		{"=no name", map[string]string{"": "no name"}},
	}
	for _, tt := range tests {
		if got := parseKnown(tt.in); !maps.Equal(got, tt.want) {
			t.Errorf("parseKnown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParseKnown(f *testing.F) {
	for _, s := range []string{"", "a=b", "a=b;c=d", ";;=;", "x=y=z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, reason := range parseKnown(s) {
			if strings.ContainsRune(name, ';') || strings.ContainsRune(name, '=') || strings.ContainsRune(reason, ';') {
				t.Fatalf("parseKnown(%q): entry %q=%q crosses a separator", s, name, reason)
			}
		}
	})
}
