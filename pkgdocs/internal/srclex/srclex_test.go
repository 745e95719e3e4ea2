package srclex

import "testing"

func TestBlockCommentEnd(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"/* a */x", 7},
		{"/* a /* nested */ b */x", 22},
		{"/* open", 7},
		{"/**/x", 4},
	}
	for _, tt := range tests {
		if got := BlockCommentEnd(tt.src, 0); got != tt.want {
			t.Errorf("BlockCommentEnd(%q) = %d, want %d", tt.src, got, tt.want)
		}
	}
}

func TestBlockDocText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/** Adds two numbers. */", "Adds two numbers."},
		{"/**\n * First line.\n *\n * Second.\n */", "First line.\n\nSecond."},
		{"/*! Crate docs. */", "Crate docs."},
	}
	for _, tt := range tests {
		if got := BlockDocText(tt.in); got != tt.want {
			t.Errorf("BlockDocText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
