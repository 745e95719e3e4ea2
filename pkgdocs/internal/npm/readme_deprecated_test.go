package npm

import (
	"testing"
	"unicode/utf8"
)

func TestReadmeDeprecation(t *testing.T) {
	tests := []struct {
		name, readme, want string
	}{
		{"tslint: a badge row, the title, an emphasised notice", "[![NPM](x.svg)](y)\n\n# TSLint\n\n:warning: __TSLint is deprecated.__\n\nMore text.\n", "TSLint is deprecated."},
		{"node-sass: a linked notice, the sentence only", "# node-sass\n\n**Warning:** [LibSass and Node Sass are deprecated](https://x). While they will continue.\n", "Warning: LibSass and Node Sass are deprecated."},
		{"a quoted notice", "# x\n\n> This package has been deprecated in favour of y.\n", "This package has been deprecated in favour of y."},
		{"a word at the start", "# x\n\nDEPRECATED: use y instead\n", "DEPRECATED: use y instead"},
		{"a maintained package mentioning a deprecated option", "# x\n\nFast and small.\n\nWorks everywhere.\n\nThe `foo` option is deprecated.\n", ""},
		{"a notice in a later section is not the README's opening", "# x\n\nFast.\n\n## Options\n\n`bar` is deprecated.\n", ""},
		{"code is not prose", "# x\n\n```js\n// this API is deprecated\n```\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := readmeDeprecation([]byte(tt.readme)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func FuzzReadmeDeprecation(f *testing.F) {
	for _, s := range []string{"# a\n\n:warning: __A is deprecated.__\n", "[![b](c)](d)\n> no longer maintained. ", "Deprecated", "# é\n\nis deprecated " + string([]byte{0xe2, 0x82})} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := readmeDeprecation([]byte(s))
		if len(got) > 310 {
			t.Fatalf("notice of %d bytes", len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("notice cut inside a character: %q", got)
		}
	})
}
