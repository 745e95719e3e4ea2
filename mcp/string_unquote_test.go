package mcp

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

var unquoteCases = []struct {
	name, in string
	direct   bool // unquoteEscaped reads it itself
}{
	{"simple escapes", `"a\"b\\c\/d\be\ff\ng\rh\ti"`, true},
	{"markdown", `"# pkg\n\nUse ` + "`x := \\\"y\\\"`" + ` in C:\\dir.\n"`, true},
	{"unicode escapes", `"\u00e9t\u00E9 \u20ac \u0000\u001f"`, true},
	{"escape at both ends", `"\nmiddle\t"`, true},
	{"only escapes", `"\\\\\\"`, true},
	{"UTF-8 around escapes", `"é\nü"`, true},
	{"surrogate pair", `"\ud83d\ude00"`, false},
	{"lone surrogate", `"\ud800x"`, false},
	{"bad escape", `"\x"`, false},
	{"short unicode escape", `"\u12"`, false},
	{"bad hex", `"\u12g4"`, false},
	{"backslash at the end", `"\"`, false},
}

// TestUnquoteAgrees checks unquoteName against jsontext.AppendUnquote, and
// that unquoteEscaped reads the escapes it is for and leaves the rest.
func TestUnquoteAgrees(t *testing.T) {
	for _, tc := range unquoteCases {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := unquoteEscaped([]byte(tc.in)); ok != tc.direct {
				t.Errorf("unquoteEscaped(%s) read it: %v, want %v", tc.in, ok, tc.direct)
			}
			checkUnquote(t, []byte(tc.in))
		})
	}
}

// checkUnquote fails t if unquoteName reads a valid JSON string
// otherwise than jsontext.AppendUnquote; on anything else it must only
// not panic.
func checkUnquote(t *testing.T, in []byte) {
	t.Helper()
	want, err := jsontext.AppendUnquote(nil, in)
	if err != nil || len(in) < 2 || in[0] != '"' {
		unquoteEscaped(in)
		return
	}
	got, err := unquoteName(in)
	if err != nil || got != string(want) {
		t.Fatalf("unquoteName(%s) = %q, %v; want %q", in, got, err, want)
	}
}

func FuzzUnquote(f *testing.F) {
	for _, tc := range unquoteCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(`"` + strings.Repeat(`ab\"\n`, 20) + `"`))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkUnquote(t, in)
	})
}

// BenchmarkUnquoteMarkdown unquotes a 1 KB markdown text with line breaks
// and quotes, as a tools/call result carries one.
func BenchmarkUnquoteMarkdown(b *testing.B) {
	line := `Use \"pkg.Do\" to run a task; it returns an error.\n`
	in := []byte(`"` + strings.Repeat(line, 1024/len(line)) + `"`)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := unquoteName(in); err != nil {
			b.Fatal(err)
		}
	}
}
