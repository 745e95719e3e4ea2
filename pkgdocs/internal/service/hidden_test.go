package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
	"github.com/gomcp/sdk/pkgdocs/internal/untrusted"
)

// hiddenRunes are the placeholders of testdata/hidden/*.txtar: the
// fixtures name what they hide, so that a reviewer sees it.
var hiddenRunes = map[string]string{
	"RLO": "\u202E", "LRO": "\u202D", "PDF": "\u202C", "LRI": "\u2066", "RLI": "\u2067", "PDI": "\u2069",
	"LRM": "\u200E", "RLM": "\u200F", "ALM": "\u061C", "ZWSP": "\u200B", "ZWNJ": "\u200C", "ZWJ": "\u200D",
	"WJ": "\u2060", "BOM": "\uFEFF", "SHY": "\u00AD", "ESC": "\x1b",
}

var placeholderRE = regexp.MustCompile(`\{\{(TAG|VS):([^}]*)\}\}|\{\{([A-Z]+)\}\}`)

// expandHidden replaces the placeholders: {{RLO}} and the like by their
// character, {{TAG:text}} by text in Unicode tag characters, {{VS:text}}
// by text smuggled in variation selectors (byte b as U+E0100+b).
func expandHidden(t testing.TB, s string) string {
	return placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		sm := placeholderRE.FindStringSubmatch(m)
		var b strings.Builder
		switch sm[1] {
		case "TAG":
			for _, c := range []byte(sm[2]) {
				b.WriteRune(0xE0000 + rune(c))
			}
		case "VS":
			for _, c := range []byte(sm[2]) {
				b.WriteRune(0xE0100 + rune(c))
			}
		default:
			r, ok := hiddenRunes[sm[3]]
			if !ok {
				t.Fatalf("unknown placeholder %s", m)
			}
			b.WriteString(r)
		}
		return b.String()
	})
}

// unpackHidden writes testdata/hidden/<name>.txtar, placeholders
// expanded, into a new directory. Files under module/ become the module
// zip of example.com/hiddendemo v1.0.0 in the directory's module cache.
func unpackHidden(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	var module []testutil.File
	for _, f := range testutil.TxtarFile(t, filepath.Join("..", "..", "testdata", "hidden", name+".txtar")) {
		data := []byte(expandHidden(t, string(f.Data)))
		if rest, ok := strings.CutPrefix(f.Name, "module/"); ok {
			module = append(module, testutil.File{Name: rest, Data: data})
			continue
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), data)
	}
	if len(module) > 0 {
		v := filepath.Join(dir, "gomodcache", "cache", "download", "example.com", "hiddendemo", "@v")
		writeFile(t, filepath.Join(v, "v1.0.0.info"), []byte(`{"Version":"v1.0.0"}`))
		writeFile(t, filepath.Join(v, "v1.0.0.mod"), []byte("module example.com/hiddendemo\n\ngo 1.22\n"))
		writeFile(t, filepath.Join(v, "v1.0.0.zip"), testutil.Zip(t, "example.com/hiddendemo@v1.0.0/", module))
	}
	return dir
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The visible text around each trick, which must survive its removal.
var (
	visibleReadme = []string{"VISIBLE-README-COMMENT before and after.", "VISIBLE-README-TAG", "VISIBLE-README-ZW", "VISIBLE-README-BIDI", "VISIBLE-README-VS", "VISIBLE-README-CODE"}
	visibleDoc    = []string{"VISIBLE-DOC-COMMENT", "VISIBLE-DOC-TAG", "VISIBLE-DOC-ZW", "VISIBLE-DOC-BIDI", "VISIBLE-DOC-VS"}
)

// TestHiddenTextNeverReachesAnAnswer: for each ecosystem, a package whose
// README (or description) and doc comments use every trick is read by its
// real reader from a project's installation; the whole-package answer, the
// symbol's answer and a search show the visible text and none of the
// hidden.
func TestHiddenTextNeverReachesAnAnswer(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		eco     string
		pkg     string
		version string
		symbol  string
		visible []string
		more    string // another symbol whose answer is checked
	}{
		{"npm", "hidden-demo", "", "greet", []string{"VISIBLE-SIG", "```html\n>\n> <div id=\"app\"></div>", "VISIBLE-README-ESC[8m", "👨\u200D👩\u200D👧", "می\u200Cخواهم", "VISIBLE-MEMBER-DOC"}, "Options.size"},
		{"npm-js", "hidden-js", "", "greet", []string{"**Deprecated:**\n\n> VISIBLE-DEPRECATED use hidden-js 3\n"}, ""},
		{"python", "hiddendemo", "", "greet", []string{"VISIBLE-DOC-DIRECTIVE"}, ""},
		{"python-rst", "hiddenrst", "", "greet", nil, ""},
		{"rust", "hidden-demo", "", "greet", []string{"VISIBLE-CRATE-COMMENT", "VISIBLE-CRATE-TAG", "VISIBLE-CRATE-EXAMPLE", "VISIBLE-DOC-EXAMPLE"}, ""},
		{"go", "example.com/hiddendemo", "v1.0.0", "Greet", []string{"VISIBLE-PKGDOC-COMMENT", "VISIBLE-PKGDOC-TAG"}, ""},
		{"swift", ".", "", "greet", nil, ""},
	} {
		t.Run(tt.eco, func(t *testing.T) {
			dir := unpackHidden(t, tt.eco)
			s := projectService(t, dir)
			describe := func(symbol string) string {
				args := DescribeArgs{Package: tt.pkg, Version: tt.version, Symbol: symbol, ProjectPath: dir, MaxTokens: 8000}
				var r *DocResult
				var err error
				switch tt.eco {
				case "npm", "npm-js":
					r, err = s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: tt.pkg, Symbol: symbol, ProjectPath: dir, MaxTokens: 8000})
				case "python", "python-rst":
					r, err = s.DescribePythonPackage(ctx, args)
				case "rust":
					r, err = s.DescribeRustPackage(ctx, args)
				case "go":
					r, err = s.DescribeGoPackage(ctx, DescribeGoArgs{Package: tt.pkg, Version: tt.version, Symbol: symbol, MaxTokens: 8000})
				case "swift":
					r, err = s.DescribeSwiftPackage(ctx, args)
				}
				if err != nil {
					t.Fatalf("describe %q: %v", symbol, err)
				}
				if r.Pages != 1 {
					t.Fatalf("describe %q: %d pages; the checks need the whole answer on one", symbol, r.Pages)
				}
				return r.Markdown
			}
			whole, sym := describe(""), describe(tt.symbol)
			if tt.more != "" {
				sym += describe(tt.more)
			}
			res, err := s.SearchPackageDocs(ctx, SearchArgs{Package: tt.pkg, Version: tt.version, Language: strings.TrimSuffix(strings.TrimSuffix(tt.eco, "-js"), "-rst"), Query: "greets someone visible", ProjectPath: dir, Limit: 10, MaxTokens: 8000})
			if err != nil {
				t.Fatalf("search: %v", err)
			}
			for name, md := range map[string]string{"package": whole, "symbol": sym, "search": res.Markdown} {
				if msg := hiddenLeft(md); msg != "" {
					t.Errorf("%s answer: %s:\n%s", name, msg, md)
				}
			}
			for _, want := range append(visibleReadme, tt.visible...) {
				if !strings.Contains(whole, want) && !strings.Contains(sym, want) {
					t.Errorf("visible text %q is missing from the answers:\n%s\n%s", want, whole, sym)
				}
			}
			for _, want := range visibleDoc {
				if !strings.Contains(sym, want) {
					t.Errorf("visible doc text %q is missing from the symbol's answer:\n%s", want, sym)
				}
			}
		})
	}
}

// hiddenLeft says what hidden text md still holds, or "".
func hiddenLeft(md string) string {
	if i := strings.Index(md, "HIDDEN"); i >= 0 {
		return "a comment's text is left: " + md[max(0, i-40):min(len(md), i+40)]
	}
	rs := []rune(md)
	for i, r := range rs {
		switch {
		case untrusted.Hidden(r):
			return "hidden character U+" + strings.ToUpper(strings.TrimPrefix(string(rune(r)), "")) + " is left near " + string(rs[max(0, i-20):min(len(rs), i+20)])
		case r == 0x200C || r == 0x200D:
			if i == 0 || i+1 == len(rs) || rs[i-1] < 0x80 || rs[i+1] < 0x80 {
				return "a joiner beside ASCII is left near " + string(rs[max(0, i-20):min(len(rs), i+20)])
			}
		}
	}
	return ""
}

// TestHiddenFixturesHide: the fixtures do hold each trick once expanded,
// so the test above cannot pass on fixtures that hide nothing.
func TestHiddenFixturesHide(t *testing.T) {
	for _, eco := range []string{"npm", "npm-js", "python", "python-rst", "rust", "go", "swift"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hidden", eco+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		s := expandHidden(t, string(raw))
		tricks := []string{"<!-- HIDDEN", "\U000E0048\U000E0049\U000E0044", "\U000E0148\U000E0149", "\u202E", "\u2066", "\u200B", "\uFEFF"}
		if eco == "python-rst" {
			tricks = append(tricks, "\n.. HIDDEN", "\n    ..\n       HIDDEN") // reST comments
		} else {
			tricks = append(tricks, "\n<!--\nHIDDEN", "[//]: # (HIDDEN") // markdown comments
		}
		for _, want := range tricks {
			if strings.Count(s, want) < 1 {
				t.Errorf("%s.txtar does not hide %+q", eco, want)
			}
		}
	}
}

// TestForgedLines: a README that copies pkgdocs' own lines (deprecation,
// title, provenance, note, API heading, footer) and leaves a code fence
// open cannot pass for pkgdocs: in the answer its lines are quoted, and
// every line outside a quote is pkgdocs' own. The answer is kept as
// testdata/golden/forged_lines.md (go test -update rewrites it).
func TestForgedLines(t *testing.T) {
	dir := unpackHidden(t, "forged")
	s := projectService(t, dir)
	r, err := s.DescribeNPMPackage(context.Background(), DescribeNPMArgs{Package: "forged-demo", ProjectPath: dir, MaxTokens: 8000})
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, "forged_lines.md", r.Markdown)

	src := []byte(r.Markdown)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var outside []string // the text of every block outside a quote
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if _, quoted := n.(*ast.Blockquote); quoted {
			continue
		}
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(src))
		}
		outside = append(outside, fmt.Sprintf("%s %q", n.Kind(), b.String()))
	}
	got := strings.Join(outside, "\n")
	for _, forged := range []string{"evil", "9.9.9", "registry.npmjs.org", "pkgdocs checked", "setup", "Page 1 of 1"} {
		if strings.Contains(got, forged) {
			t.Errorf("package text %q is outside a quote, where pkgdocs' own lines are:\n%s", forged, got)
		}
	}
	// pkgdocs' own lines are there, outside quotes: the title, the
	// provenance, and the API heading after the unclosed fence.
	for _, own := range []string{`Heading "forged-demo@1.0.0"`, `Paragraph "*npm · local · installed node_modules/forged-demo`, `Heading "Functions"`} {
		if !strings.Contains(got, own) {
			t.Errorf("pkgdocs' line %s is not outside the quotes:\n%s", own, got)
		}
	}
	if strings.Count(r.Markdown, "\n# ")+boolInt(strings.HasPrefix(r.Markdown, "# ")) != 1 {
		t.Errorf("the answer has more than one title line:\n%s", r.Markdown)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// goldenFile compares got with testdata/golden/name (go test -update
// rewrites it).
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		writeFile(t, path, []byte(got))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// TestErrorsHideNothing: an error quoting a package's bytes (a parse
// error, a file name) loses its hidden characters and keeps its class.
func TestErrorsHideNothing(t *testing.T) {
	base := fmt.Errorf("x.go:1:2: bad name \"a\u202Eb\U000E0041\": %w", ErrNotFound)
	err := cleanError(base)
	if err.Error() != "x.go:1:2: bad name \"ab\": not found" || !errors.Is(err, ErrNotFound) {
		t.Errorf("cleanError = %q (is not found: %v)", err, errors.Is(err, ErrNotFound))
	}
	if plain := errors.New("plain"); cleanError(plain) != plain || cleanError(nil) != nil {
		t.Error("an error with nothing hidden is not returned as it is")
	}
}
