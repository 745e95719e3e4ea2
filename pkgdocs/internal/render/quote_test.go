package render

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// TestQuote: package text is quoted line by line, blank lines included, so
// that none of its lines starts as a pkgdocs line does.
func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"\n\n", ""},
		{"one line", "> one line\n"},
		{"# title\n\ntext\n", "> # title\n>\n> text\n"},
		{"```go\nx := 1\n", "> ```go\n> x := 1\n"}, // the fence ends with the quote
		{"---\n*Page 1 of 1.*", "> ---\n> *Page 1 of 1.*\n"},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPackageTextIsQuoted: in a rendered package, README sections, doc
// comments, the synopsis and example docs are quoted, and pkgdocs' own
// lines (headings it writes, notes, "Defined in") are not.
func TestPackageTextIsQuoted(t *testing.T) {
	p := &model.Package{
		Name: "x", Version: "1.0.0", Ecosystem: model.NPM, Synopsis: "Does x.",
		Notes:    []string{"The package tarball has no README."},
		Sections: []model.Section{{Path: []string{"Usage"}, Markdown: "## Usage\n\n```js\nx()\n", Priority: model.PriorityUsage}},
		Symbols:  []model.Symbol{{Name: "x", Kind: "function", Signature: "function x(): void", Doc: "# Examples\n\nCalls x.", File: "index.d.ts"}},
		Examples: []model.Example{{Name: "basic.js", Doc: "Shows x.", Code: "x()", Lang: "js"}},
	}
	var all strings.Builder
	for _, b := range append(Blocks(p, All), SymbolBlocks(p, "x")...) {
		all.WriteString(b.Text + "\n")
	}
	got := all.String()
	for _, want := range []string{"> Does x.\n", "> ## Usage\n", "> ```js\n> x()\n", "> # Examples\n>\n> Calls x.\n", "> Shows x.\n", "**Note:** The package tarball has no README.\n", "## function x\n", "*Defined in index.d.ts.*"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "> **Note:**") || strings.HasPrefix(line, "> ## function") || strings.HasPrefix(line, "> *Defined") {
			t.Errorf("pkgdocs line quoted: %q", line)
		}
	}
}

// TestClipEndsQuote: a clipped quote is followed by a blank line, so the
// clip note is pkgdocs' line, not a continuation of the quoted paragraph.
func TestClipEndsQuote(t *testing.T) {
	text := Quote(strings.Repeat("a long line of quoted package prose\n", 200))
	got, clipped := Clip(text, 100)
	if !clipped || !strings.Contains(got, ">\n\n*… (") && !strings.Contains(got, "prose\n\n*… (") {
		t.Fatalf("clip note not apart from the quote:\n%s", got)
	}
}

// TestHeaderFileNames: a file name in the provenance line cannot close its
// emphasis and write a line of its own.
func TestHeaderFileNames(t *testing.T) {
	p := &model.Package{Name: "x", Version: "1.0.0", Ecosystem: model.NPM, Registry: "local", Origin: "tarball x.d.ts* **Note:** trusted *", ResolvedFrom: "lockfile"}
	want := "*npm · local · tarball x.d.ts\\* \\*\\*Note:\\*\\* trusted \\* · version from lockfile*\n"
	if h := Header(p); !strings.HasSuffix(h, want) {
		t.Errorf("Header = %q, want it to end with %q", h, want)
	}
}
