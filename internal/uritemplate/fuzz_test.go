package uritemplate

import (
	"strings"
	"testing"
)

// FuzzTemplate parses arbitrary templates and matches arbitrary URIs
// against them. It checks that nothing panics, that a parsed template
// prints as it was written, that an expansion contains only characters a
// URI may contain, and that a match reports only the template's
// variables.
func FuzzTemplate(f *testing.F) {
	for _, tt := range rfcExpansions {
		f.Add(tt.template, tt.want)
	}
	f.Add("test://template/{id}/data", "test://template/123/data")
	f.Add("file:///{+path}", "file:///a/b%2Fc")
	f.Add("search{?q,lang}{&page}", "search?lang=en&q=go&page=2")
	f.Add("{x:3}/{x}", "abc/abcdef")
	f.Add("{/a*}{?b,c*}{#d}", "/1/2?b=3&x=y#z")
	f.Add("{%41.b}", "%FF")
	f.Add("{", "}")
	f.Fuzz(func(t *testing.T, template, uri string) {
		tmpl, err := Parse(template)
		if err != nil {
			return
		}
		if tmpl.String() != template {
			t.Fatalf("String() = %q, want %q", tmpl.String(), template)
		}
		vars := map[string]Value{}
		for i, name := range tmpl.Vars() {
			switch i % 3 {
			case 0:
				vars[name] = String(uri)
			case 1:
				vars[name] = List(uri, "b c")
			default:
				vars[name] = Assoc("k", uri)
			}
		}
		if exp := tmpl.Expand(vars); !isURIText(exp) {
			t.Fatalf("Expand of %q gave %q, which has characters a URI may not", template, exp)
		}
		vals, ok := tmpl.Match(uri)
		if !ok {
			return
		}
		known := map[string]bool{}
		for _, name := range tmpl.Vars() {
			known[name] = true
		}
		for name := range vals {
			if !known[name] {
				t.Fatalf("Match(%q) of %q reported variable %q the template does not have", uri, template, name)
			}
		}
	})
}

// isURIText reports whether s has only unreserved and reserved characters
// and well-formed percent-encoded triplets.
func isURIText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c), isReserved(c):
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return !strings.ContainsAny(s, " \x00")
}
