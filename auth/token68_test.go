package auth

import (
	"strings"
	"testing"
)

// isToken68Ref is the token68 grammar of RFC 9110 section 11.2, checked
// one character at a time: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" /
// "+" / "/" ) *"=".
func isToken68Ref(s string) bool {
	i := 0
	for i < len(s) && strings.IndexByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/", s[i]) >= 0 {
		i++
	}
	return i > 0 && strings.Trim(s[i:], "=") == ""
}

func TestIsToken68(t *testing.T) {
	jwt := "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"
	tests := []struct {
		s    string
		want bool
	}{
		{"", false},
		{"=", false},
		{"a", true},
		{"a=", true},
		{"a==", true},
		{"a=b", false},
		{jwt, true},
		{jwt + "==", true},
		{"abc~+/-._XYZ09", true},
		{"abcdefgh", true},          // exactly one block of eight
		{"abcdefghi", true},         // one block and one more
		{"abcdefg ", false},         // a space at the end of a block
		{"abcdefgh ", false},        // a space right after a block
		{" abcdefgh", false},        // a space first
		{"abcdefghabcdefg,", false}, // a comma ending the second block
		{"abcd\x00efgh", false},
		{"abcdefgh\xff", false},
		{jwt[:30] + "é" + jwt[30:], false},
		{jwt[:40] + "=" + jwt[40:], false}, // padding only at the end
		{strings.Repeat("x", 8*64), true},
		{strings.Repeat("x", 8*64) + "\"", false},
	}
	for _, tt := range tests {
		if got := isToken68(tt.s); got != tt.want {
			t.Errorf("isToken68(%q) = %v, want %v", tt.s, got, tt.want)
		}
		if ref := isToken68Ref(tt.s); ref != tt.want {
			t.Errorf("reference says %v for %q: the table is wrong", ref, tt.s)
		}
	}
	// Every byte, at every position of a block and after it.
	for c := range 256 {
		for pos := range 10 {
			s := []byte("abcdefghij")
			s[pos] = byte(c)
			if got, want := isToken68(string(s)), isToken68Ref(string(s)); got != want {
				t.Errorf("isToken68(%q) = %v, want %v", s, got, want)
			}
		}
	}
}

// FuzzIsToken68 checks the eight-at-a-time scan against the grammar.
func FuzzIsToken68(f *testing.F) {
	f.Add("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl")
	f.Add("abcdefgh=")
	f.Add("abcdefg\"h")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isToken68(s), isToken68Ref(s); got != want {
			t.Fatalf("isToken68(%q) = %v, want %v", s, got, want)
		}
	})
}
