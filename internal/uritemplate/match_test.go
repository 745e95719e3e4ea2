package uritemplate

import (
	"maps"
	"testing"
)

// TestMatchRFC6570Examples matches every expansion of RFC 6570 §3.2 back
// against its template and expands the values found again: the result
// must be the same URI.
func TestMatchRFC6570Examples(t *testing.T) {
	// Expansions Match does not recover, by design (see Match).
	skip := map[string]string{
		"O{empty}X":  "a simple expression matches at least one character",
		"O{undef}X":  "a simple expression matches at least one character",
		"O{+empty}X": "a reserved expression matches at least one character",
		"O{+undef}X": "a reserved expression matches at least one character",
		"X{.keys*}":  `the value "." contains the separator: ambiguous`,
	}
	for _, tt := range rfcExpansions {
		if _, ok := skip[tt.template]; ok {
			continue
		}
		tmpl := MustParse(tt.template)
		vals, ok := tmpl.Match(tt.want)
		if !ok {
			t.Errorf("Parse(%q).Match(%q) failed", tt.template, tt.want)
			continue
		}
		if got := tmpl.Expand(vals); got != tt.want {
			t.Errorf("Parse(%q).Match(%q) = %v, which expands to %q", tt.template, tt.want, vals, got)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tt := range matchCases {
		tmpl := MustParse(tt.template)
		got, ok := tmpl.Match(tt.uri)
		if tt.want == nil {
			if ok {
				t.Errorf("Parse(%q).Match(%q) = %v, want no match", tt.template, tt.uri, got)
			}
			continue
		}
		if !ok {
			t.Errorf("Parse(%q).Match(%q) failed, want %v", tt.template, tt.uri, tt.want)
			continue
		}
		if !maps.EqualFunc(got, tt.want, Value.Equal) {
			t.Errorf("Parse(%q).Match(%q) = %v, want %v", tt.template, tt.uri, got, tt.want)
		}
	}
}

// matchCases lists templates, URIs, and the variables Match recovers from
// each (nil when the URI does not match).
var matchCases = []struct {
	template string
	uri      string
	want     map[string]Value // nil: no match
}{
	// MCP-style resource templates.
	{"test://template/{id}/data", "test://template/123/data", map[string]Value{"id": String("123")}},
	{"test://template/{id}/data", "test://template//data", nil},
	{"test://template/{id}/data", "test://template/1/2/data", nil},
	{"test://template/{id}/data", "test://template/123/data/", nil},
	{"test://template/{id}/data", "test://template/123/dat", nil},
	{"users://{id}", "users://", nil},
	{"users://{id}", "users://a%20b", map[string]Value{"id": String("a b")}},
	{"users://{id}", "users://a%2Fb", map[string]Value{"id": String("a/b")}},
	{"users://{id}", "users://a b", nil},
	{"users://{id}", "users://a:b", nil},
	{"file:///{+path}", "file:///a/b/c.txt", map[string]Value{"path": String("a/b/c.txt")}},
	{"file:///{+path}", "file:///", nil},
	{"file:///{path}", "file:///a/b", nil},
	{"repo://{owner}/{repo}/blob/{+path}", "repo://me/proj/blob/src/main.go",
		map[string]Value{"owner": String("me"), "repo": String("proj"), "path": String("src/main.go")}},
	// Reserved expansion takes as little as it can.
	{"{+path}{?q}", "a/b?q=1", map[string]Value{"path": String("a/b"), "q": String("1")}},
	{"{+a}/{b}", "x/y/z", map[string]Value{"a": String("x/y"), "b": String("z")}},
	// Queries: any order, missing variables undefined, unknown names fail.
	{"search{?q,lang}", "search?lang=en&q=go", map[string]Value{"q": String("go"), "lang": String("en")}},
	{"search{?q,lang}", "search", map[string]Value{}},
	{"search{?q,lang}", "search?q=", map[string]Value{"q": String("")}},
	{"search{?q,lang}", "search?q=a+b:c", map[string]Value{"q": String("a+b:c")}},
	{"search{?q,lang}", "search?x=1", nil},
	{"search{?q,lang}", "search?q=1&q=2", nil},
	{"search{?q}{&page}", "search?q=x&page=2", map[string]Value{"q": String("x"), "page": String("2")}},
	{"search{?q*}", "search?a=1&b=2", map[string]Value{"q": Assoc("a", "1", "b", "2")}},
	{"search{?q,rest*}", "search?q=1&a=2", map[string]Value{"q": String("1"), "rest": Assoc("a", "2")}},
	// Lists and exploded values.
	{"{/list*}", "/a/b/c", map[string]Value{"list": List("a", "b", "c")}},
	{"{/a,list*}", "/x/b/c", map[string]Value{"a": String("x"), "list": List("b", "c")}},
	{"{list}", "a,b", map[string]Value{"list": List("a", "b")}},
	{"{list}", "a%2Cb", map[string]Value{"list": String("a,b")}},
	{"{+list}", "a,b", map[string]Value{"list": String("a,b")}},
	{"{x,y}", "1,2,3", map[string]Value{"x": String("1"), "y": List("2", "3")}},
	{"{x,y}", "1", map[string]Value{"x": String("1")}},
	{"{keys*}", "a=1,b=2", map[string]Value{"keys": Assoc("a", "1", "b", "2")}},
	{"{.x}", ".a.b", map[string]Value{"x": String("a.b")}},
	// Prefixes.
	{"{x:3}", "abc", map[string]Value{"x": String("abc")}},
	{"{x:3}", "abcd", nil},
	{"{x:2}", "%C3%A9%C3%A9", map[string]Value{"x": String("éé")}},
	{"{x:3}/{x}", "abc/abcdef", map[string]Value{"x": String("abcdef")}},
	{"{x}/{x:3}", "abcdef/abc", map[string]Value{"x": String("abcdef")}},
	{"{x:3}/{x}", "ab/abcdef", nil},
	{"{x}/{x}", "a/a", map[string]Value{"x": String("a")}},
	{"{x}/{x}", "a/ab", nil},
	// Decoded values must be UTF-8.
	{"{x}", "%FF", nil},
	{"{x}", "%C3%A9", map[string]Value{"x": String("é")}},
	// Fragments.
	{"page{#sec}", "page#intro", map[string]Value{"sec": String("intro")}},
	{"page{#sec}", "page", map[string]Value{}},
	// Literals are matched as they expand: non-ASCII is encoded.
	{"/ö/{v}", "/%C3%B6/1", map[string]Value{"v": String("1")}},
	{"/ö/{v}", "/ö/1", nil},
	{"a.b{x}", "aXb1", nil},
}

// TestMatchLongInput checks that matching is linear: a long URI that
// almost matches does not take long.
func TestMatchLongInput(t *testing.T) {
	tmpl := MustParse("{+a}{+b}{+c}x")
	long := make([]byte, 1<<16)
	for i := range long {
		long[i] = 'a'
	}
	if _, ok := tmpl.Match(string(long)); ok {
		t.Fatal("matched a URI without the trailing literal")
	}
}
