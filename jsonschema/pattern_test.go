package jsonschema

import (
	"math/rand/v2"
	"testing"
)

var simplePatternCases = []string{
	"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$",
	"^[a-z]+$",
	"[a-z]cole",
	"^\\d{3}-\\d{4}$",
	"^a*b?c{2,4}$",
	"a.c",
	"^\\s*$",
	"^[^@]+@[^@]+$",
	"x{0,3}y",
	"^\\w+\\.\\w{1,}$",
	"^é+ü?$",
	"^[α-ω]{2}",
	"a+?b",
	"^$",
	"",
	"\\$\\.",
	"^[\\d\\s]+$",
	"[-a]",
	"^\\S\\W\\D$",
}

// TestSimplePatternMatchesRegexp checks the fast matcher against Go's regexp
// on the same ECMA-262 pattern, for many random strings.
func TestSimplePatternMatchesRegexp(t *testing.T) {
	alphabet := []rune("abcxyz019/._-@ \t\n\r\u2028éüαβω")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, src := range simplePatternCases {
		sp := compileSimplePattern(src)
		if sp == nil {
			t.Errorf("%q: not recognized as a simple pattern", src)
			continue
		}
		re, err := compileRegexp(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for k := 0; k < 3000; k++ {
			n := rng.IntN(12)
			rs := make([]rune, n)
			for i := range rs {
				rs[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := []byte(string(rs))
			if got, want := sp.match(s), re.Match(s); got != want {
				t.Errorf("%q on %q: simple matcher says %v, regexp says %v", src, s, got, want)
				break
			}
		}
	}
}

func TestNotSimplePattern(t *testing.T) {
	for _, src := range []string{"(a)", "a|b", "\\bword", "[[]", "\\1", "(?<n>x)", "a{99}", "\\p{L}", "^a$b"} {
		if compileSimplePattern(src) != nil {
			t.Errorf("%q: treated as a simple pattern", src)
		}
	}
}

// FuzzSimplePattern checks that, whenever a pattern is handled by the fast
// matcher, it agrees with Go's regexp.
func FuzzSimplePattern(f *testing.F) {
	for _, src := range simplePatternCases {
		f.Add(src, "abc/def")
	}
	f.Add("^[a-c]{1,3}x?$", "abx")
	f.Fuzz(func(t *testing.T, src, input string) {
		sp := compileSimplePattern(src)
		if sp == nil {
			return
		}
		re, err := compileRegexp(src)
		if err != nil {
			return // the simple matcher accepted something Go's regexp rejects: fine
		}
		s := []byte(input)
		if got, want := sp.match(s), re.Match(s); got != want {
			t.Errorf("%q on %q: simple matcher says %v, regexp says %v", src, input, got, want)
		}
	})
}

func TestTranslatePattern(t *testing.T) {
	tests := []struct {
		pattern, input string
		want           bool
	}{
		{`^\cC$`, "\x03", true},
		{`^\s$`, "\u00a0", true},
		{`^\S$`, "\u2003", false},
		{`\p{Letter}cole`, "école", true},
		{`^\p{digit}+$`, "\u09ea\u09e8", true},
		{`^\u0041$`, "A", true},
		{`^\u{1F600}$`, "😀", true},
		{`^[^]$`, "x", true},
		{`a.c`, "a\u2028c", false},
		{`(?<year>\d{4})`, "2024", true},
	}
	for _, tc := range tests {
		p, err := compilePattern(tc.pattern)
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		if got := p.match([]byte(tc.input)); got != tc.want {
			t.Errorf("%s on %q = %v, want %v", tc.pattern, tc.input, got, tc.want)
		}
	}
	for _, bad := range []string{`(?=a)`, `(?<!a)b`, `(a)\1`, `\k<n>`, `(`} {
		if _, err := compilePattern(bad); err == nil {
			t.Errorf("%s: compiled, want an error", bad)
		}
	}
}
