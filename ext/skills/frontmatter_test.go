package skills

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"minimal", "---\nname: pdf\ndescription: Read PDFs\n---\nbody", `{"description":"Read PDFs","name":"pdf"}`},
		{"crlf and bom", "\ufeff---\r\nname: a\r\n---\r\n", `{"name":"a"}`},
		{"empty", "---\n---\n", `{}`},
		{"types", "---\nn: 12\nf: 1.5\nneg: -3\nt: true\nF: False\nz: null\nz2: ~\ns: '12'\nhex: 0x1F\nword: yes\n---",
			`{"F":false,"f":1.5,"hex":31,"n":12,"neg":-3,"s":"12","t":true,"word":"yes","z":null,"z2":null}`},
		{"quoted", "---\na: \"x: y # not a comment\"\nb: 'it''s'\nc: \"tab\\there \\u00e9\"\n---", `{"a":"x: y # not a comment","b":"it's","c":"tab\there é"}`},
		{"comments", "---\n# a comment\nname: x # trailing\nurl: http://a#b\n---", `{"name":"x","url":"http://a#b"}`},
		{"nested mapping", "---\nname: x\nmetadata:\n  author: me\n  version: \"1.0\"\n  deep:\n    k: v\n---",
			`{"metadata":{"author":"me","deep":{"k":"v"},"version":"1.0"},"name":"x"}`},
		{"block sequence", "---\nallowed-tools:\n  - Read\n  - Bash(git:*)\ntags:\n- a\n- b\n---", `{"allowed-tools":["Read","Bash(git:*)"],"tags":["a","b"]}`},
		{"sequence of mappings", "---\nitems:\n  - name: a\n    size: 1\n  - name: b\n---", `{"items":[{"name":"a","size":1},{"name":"b"}]}`},
		{"flow", "---\ntags: [a, \"b c\", 3]\nmeta: {k: v, n: 1}\nempty: []\n---", `{"empty":[],"meta":{"k":"v","n":1},"tags":["a","b c",3]}`},
		{"folded plain", "---\ndescription: Extract text from PDFs. Use when\n  working with PDF files.\nname: pdf\n---",
			`{"description":"Extract text from PDFs. Use when working with PDF files.","name":"pdf"}`},
		{"literal block", "---\ntext: |\n  line one\n  line two\nnext: x\n---", `{"next":"x","text":"line one\nline two\n"}`},
		{"literal strip", "---\ntext: |-\n  a\n\n  b\n\n---", `{"text":"a\n\nb"}`},
		{"folded block", "---\ntext: >\n  a\n  b\n\n  c\n---", `{"text":"a b\nc\n"}`},
		{"empty value", "---\na:\nb: 1\n---", `{"a":null,"b":1}`},
		{"colon in value", "---\na: b:c\n---", `{"a":"b:c"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseFrontmatter([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(m)
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseFrontmatterRefuses(t *testing.T) {
	for _, tc := range []struct{ name, doc string }{
		{"no opening line", "name: x\n---\n"},
		{"no closing line", "---\nname: x\n"},
		{"not a mapping", "---\n- a\n---"},
		{"duplicate key", "---\na: 1\na: 2\n---"},
		{"anchor", "---\na: &x 1\n---"},
		{"alias", "---\na: *x\n---"},
		{"tag", "---\na: !!str 1\n---"},
		{"bad indentation", "---\na: 1\n   b: 2\n---"},
		{"unterminated quote", "---\na: \"x\n---"},
		{"unterminated flow", "---\na: [1, 2\n---"},
		{"bad escape", "---\na: \"\\q\"\n---"},
		{"tab indentation", "---\na:\n\tb: 1\n---"},
		{"invalid utf-8", "---\na: \xff\n---"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m, err := ParseFrontmatter([]byte(tc.doc)); !errors.Is(err, ErrFrontmatter) {
				t.Errorf("got %v, %v; want an error wrapping ErrFrontmatter", m, err)
			}
		})
	}
}

func FuzzParseFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: x\ndescription: y\n---\n",
		"---\nitems:\n  - name: a\n    size: 1\n  - [1, {a: b}]\n---",
		"---\ntext: |+\n  a\n\n---",
		"---\na: \"\\u00e9\\x41\"\nb: 'x''y'\n---",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		m, err := ParseFrontmatter(doc)
		if err != nil {
			if !errors.Is(err, ErrFrontmatter) {
				t.Fatalf("error %v does not wrap ErrFrontmatter", err)
			}
			return
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("result does not encode as JSON: %v", err)
		}
	})
}
