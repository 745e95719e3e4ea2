package uritemplate

import "testing"

// rfcVars are the variables of the examples in RFC 6570 §3.2.
var rfcVars = map[string]Value{
	"count":      List("one", "two", "three"),
	"dom":        List("example", "com"),
	"dub":        String("me/too"),
	"hello":      String("Hello World!"),
	"half":       String("50%"),
	"var":        String("value"),
	"who":        String("fred"),
	"base":       String("http://example.com/home/"),
	"path":       String("/foo/bar"),
	"list":       List("red", "green", "blue"),
	"keys":       Assoc("semi", ";", "dot", ".", "comma", ","),
	"v":          String("6"),
	"x":          String("1024"),
	"y":          String("768"),
	"empty":      String(""),
	"empty_keys": Assoc(),
	// "undef" is left out: undefined.
}

// rfcExpansions are the examples of RFC 6570 §3.2.1 to §3.2.9 (and the
// level examples of §1.2), in the RFC's order.
var rfcExpansions = []struct{ template, want string }{
	// §3.2.1 Variable Expansion
	{"{count}", "one,two,three"},
	{"{count*}", "one,two,three"},
	{"{/count}", "/one,two,three"},
	{"{/count*}", "/one/two/three"},
	{"{;count}", ";count=one,two,three"},
	{"{;count*}", ";count=one;count=two;count=three"},
	{"{?count}", "?count=one,two,three"},
	{"{?count*}", "?count=one&count=two&count=three"},
	{"{&count*}", "&count=one&count=two&count=three"},
	// §3.2.2 Simple String Expansion
	{"{var}", "value"},
	{"{hello}", "Hello%20World%21"},
	{"{half}", "50%25"},
	{"O{empty}X", "OX"},
	{"O{undef}X", "OX"},
	{"{x,y}", "1024,768"},
	{"{x,hello,y}", "1024,Hello%20World%21,768"},
	{"?{x,empty}", "?1024,"},
	{"?{x,undef}", "?1024"},
	{"?{undef,y}", "?768"},
	{"{var:3}", "val"},
	{"{var:30}", "value"},
	{"{list}", "red,green,blue"},
	{"{list*}", "red,green,blue"},
	{"{keys}", "semi,%3B,dot,.,comma,%2C"},
	{"{keys*}", "semi=%3B,dot=.,comma=%2C"},
	// §3.2.3 Reserved Expansion
	{"{+var}", "value"},
	{"{+hello}", "Hello%20World!"},
	{"{+half}", "50%25"},
	{"{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"},
	{"{+base}index", "http://example.com/home/index"},
	{"O{+empty}X", "OX"},
	{"O{+undef}X", "OX"},
	{"{+path}/here", "/foo/bar/here"},
	{"here?ref={+path}", "here?ref=/foo/bar"},
	{"up{+path}{var}/here", "up/foo/barvalue/here"},
	{"{+x,hello,y}", "1024,Hello%20World!,768"},
	{"{+path,x}/here", "/foo/bar,1024/here"},
	{"{+path:6}/here", "/foo/b/here"},
	{"{+list}", "red,green,blue"},
	{"{+list*}", "red,green,blue"},
	{"{+keys}", "semi,;,dot,.,comma,,"},
	{"{+keys*}", "semi=;,dot=.,comma=,"},
	// §3.2.4 Fragment Expansion
	{"{#var}", "#value"},
	{"{#hello}", "#Hello%20World!"},
	{"{#half}", "#50%25"},
	{"foo{#empty}", "foo#"},
	{"foo{#undef}", "foo"},
	{"{#x,hello,y}", "#1024,Hello%20World!,768"},
	{"{#path,x}/here", "#/foo/bar,1024/here"},
	{"{#path:6}/here", "#/foo/b/here"},
	{"{#list}", "#red,green,blue"},
	{"{#list*}", "#red,green,blue"},
	{"{#keys}", "#semi,;,dot,.,comma,,"},
	{"{#keys*}", "#semi=;,dot=.,comma=,"},
	// §3.2.5 Label Expansion with Dot-Prefix
	{"{.who}", ".fred"},
	{"{.who,who}", ".fred.fred"},
	{"{.half,who}", ".50%25.fred"},
	{"www{.dom*}", "www.example.com"},
	{"X{.var}", "X.value"},
	{"X{.empty}", "X."},
	{"X{.undef}", "X"},
	{"X{.var:3}", "X.val"},
	{"X{.list}", "X.red,green,blue"},
	{"X{.list*}", "X.red.green.blue"},
	{"X{.keys}", "X.semi,%3B,dot,.,comma,%2C"},
	{"X{.keys*}", "X.semi=%3B.dot=..comma=%2C"},
	{"X{.empty_keys}", "X"},
	{"X{.empty_keys*}", "X"},
	// §3.2.6 Path Segment Expansion
	{"{/who}", "/fred"},
	{"{/who,who}", "/fred/fred"},
	{"{/half,who}", "/50%25/fred"},
	{"{/who,dub}", "/fred/me%2Ftoo"},
	{"{/var}", "/value"},
	{"{/var,empty}", "/value/"},
	{"{/var,undef}", "/value"},
	{"{/var,x}/here", "/value/1024/here"},
	{"{/var:1,var}", "/v/value"},
	{"{/list}", "/red,green,blue"},
	{"{/list*}", "/red/green/blue"},
	{"{/list*,path:4}", "/red/green/blue/%2Ffoo"},
	{"{/keys}", "/semi,%3B,dot,.,comma,%2C"},
	{"{/keys*}", "/semi=%3B/dot=./comma=%2C"},
	// §3.2.7 Path-Style Parameter Expansion
	{"{;who}", ";who=fred"},
	{"{;half}", ";half=50%25"},
	{"{;empty}", ";empty"},
	{"{;v,empty,who}", ";v=6;empty;who=fred"},
	{"{;v,bar,who}", ";v=6;who=fred"},
	{"{;x,y}", ";x=1024;y=768"},
	{"{;x,y,empty}", ";x=1024;y=768;empty"},
	{"{;x,y,undef}", ";x=1024;y=768"},
	{"{;hello:5}", ";hello=Hello"},
	{"{;list}", ";list=red,green,blue"},
	{"{;list*}", ";list=red;list=green;list=blue"},
	{"{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"},
	{"{;keys*}", ";semi=%3B;dot=.;comma=%2C"},
	// §3.2.8 Form-Style Query Expansion
	{"{?who}", "?who=fred"},
	{"{?half}", "?half=50%25"},
	{"{?x,y}", "?x=1024&y=768"},
	{"{?x,y,empty}", "?x=1024&y=768&empty="},
	{"{?x,y,undef}", "?x=1024&y=768"},
	{"{?var:3}", "?var=val"},
	{"{?list}", "?list=red,green,blue"},
	{"{?list*}", "?list=red&list=green&list=blue"},
	{"{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"},
	{"{?keys*}", "?semi=%3B&dot=.&comma=%2C"},
	// §3.2.9 Form-Style Query Continuation
	{"{&who}", "&who=fred"},
	{"{&half}", "&half=50%25"},
	{"?fixed=yes{&x}", "?fixed=yes&x=1024"},
	{"{&x,y,empty}", "&x=1024&y=768&empty="},
	{"{&var:3}", "&var=val"},
	{"{&list}", "&list=red,green,blue"},
	{"{&list*}", "&list=red&list=green&list=blue"},
	{"{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"},
	{"{&keys*}", "&semi=%3B&dot=.&comma=%2C"},
	// §1.2 level examples not covered above
	{"X{#var}", "X#value"},
	{"X{#hello}", "X#Hello%20World!"},
	{"map?{x,y}", "map?1024,768"},
	{"X{.x,y}", "X.1024.768"},
	{"{var:20}", "value"},
}

func TestExpandRFC6570Examples(t *testing.T) {
	for _, tt := range rfcExpansions {
		tmpl, err := Parse(tt.template)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.template, err)
			continue
		}
		if got := tmpl.Expand(rfcVars); got != tt.want {
			t.Errorf("Parse(%q).Expand() = %q, want %q", tt.template, got, tt.want)
		}
	}
}

func TestExpandEncoding(t *testing.T) {
	tests := []struct {
		template string
		vars     map[string]Value
		want     string
	}{
		// Non-ASCII values are encoded as UTF-8 (RFC 6570 §1.6).
		{"{v}", map[string]Value{"v": String("é")}, "%C3%A9"},
		{"{+v}", map[string]Value{"v": String("é/ü")}, "%C3%A9/%C3%BC"},
		// Prefixes count characters, not bytes.
		{"{v:2}", map[string]Value{"v": String("héllo")}, "h%C3%A9"},
		// Reserved expansion keeps well-formed triplets and encodes a bare '%'.
		{"{+v}", map[string]Value{"v": String("a%2Fb%zz")}, "a%2Fb%25zz"},
		// Non-ASCII literals are encoded; reserved literals are copied.
		{"/ö/{v}?a=b", map[string]Value{"v": String("1")}, "/%C3%B6/1?a=b"},
		// An exploded associative array with an empty value.
		{"{?k*}", map[string]Value{"k": Assoc("a", "", "b", "2")}, "?a=&b=2"},
		{"{;k*}", map[string]Value{"k": Assoc("a", "", "b", "2")}, ";a;b=2"},
		{"{/k*}", map[string]Value{"k": Assoc("a", "")}, "/a="},
		// An empty list is undefined.
		{"a{/l}b", map[string]Value{"l": List()}, "ab"},
		{"", nil, ""},
		{"no-expressions", nil, "no-expressions"},
	}
	for _, tt := range tests {
		got := MustParse(tt.template).Expand(tt.vars)
		if got != tt.want {
			t.Errorf("Parse(%q).Expand(%v) = %q, want %q", tt.template, tt.vars, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []string{
		"{",
		"}",
		"a{b",
		"a}b",
		"{a{b}}",
		"{}",
		"{+}",
		"{a,}",
		"{,a}",
		"{=a}",
		"{!a}",
		"{@a}",
		"{|a}",
		"{a-b}",
		"{.a.}",
		"{a..b}",
		"{.}",
		"{a:0}",
		"{a:01}",
		"{a:10000}",
		"{a:}",
		"{a:x}",
		"{a:3*}",
		"{a*:3}",
		"{a**}",
		"{%zz}",
		"a b",
		"a\"b",
		"a<b>",
		"a\\b",
		"a^b",
		"a`b",
		"a|b",
		"x'y",
		"a%2",
		"a%zz",
		"a\x00b",
		"a\x7fb",
		"\xff",
	}
	for _, tmpl := range tests {
		if _, err := Parse(tmpl); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", tmpl)
		}
	}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		template string
		vars     []string
	}{
		{"file:///{+path}", []string{"path"}},
		{"{a.b,c_d,%41}", []string{"a.b", "c_d", "%41"}},
		{"{x}{x}{y:9999}", []string{"x", "y"}},
		{"{/a*}{?b,c*}{#d}", []string{"a", "b", "c", "d"}},
		{"%2F{a}ü", []string{"a"}},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.template)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.template, err)
			continue
		}
		if tmpl.String() != tt.template {
			t.Errorf("String() = %q, want %q", tmpl.String(), tt.template)
		}
		got := tmpl.Vars()
		if len(got) != len(tt.vars) {
			t.Errorf("Parse(%q).Vars() = %q, want %q", tt.template, got, tt.vars)
			continue
		}
		for i := range got {
			if got[i] != tt.vars[i] {
				t.Errorf("Parse(%q).Vars() = %q, want %q", tt.template, got, tt.vars)
			}
		}
	}
}
