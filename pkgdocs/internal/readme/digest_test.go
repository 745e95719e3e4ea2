package readme

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark/text"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

const expressLike = `[![NPM Version][npm-version-image]][npm-url]
[![Build](https://github.com/x/y/actions/workflows/ci.yml/badge.svg)](https://github.com/x/y)

# express

<!-- generated: do not edit -->
<p align="center"><img src="logo.png" alt="logo"></p>

Fast, unopinionated, minimalist web framework for Node.js.

## Installation

` + "```sh" + `
# this is a shell comment, not a heading
$ npm install express
` + "```" + `

## Quick Start

Create an app:

` + "```js" + `
const app = require('express')()
` + "```" + `

## API

### app.get(path, handler)

Routes GET requests.

## Contributing

Please read CONTRIBUTING.md.

## Current project team members

* alice

### TC

* bob

## Latest news

Version 5 is out.

## Testing

Run npm test.

## License

[MIT](LICENSE)

[npm-version-image]: https://badgen.net/npm/v/express
[npm-url]: https://npmjs.org/package/express
`

func TestSections(t *testing.T) {
	got := Sections([]byte(expressLike), "Readme.md")
	type want struct {
		title    string
		priority model.Priority
	}
	wants := []want{
		{"(introduction)", model.PriorityOverview},
		{"Installation", model.PriorityUsage},
		{"Quick Start", model.PriorityUsage},
		{"API › app.get(path, handler)", model.PriorityAPI},
		{"Latest news", model.PriorityRest},
		{"Testing", model.PriorityRest},
	}
	if len(got) != len(wants) {
		for _, s := range got {
			t.Logf("section %q:\n%s", s.Title(), s.Markdown)
		}
		t.Fatalf("got %d sections, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		if got[i].Title() != w.title || got[i].Priority != w.priority {
			t.Errorf("section %d = %q (priority %d), want %q (priority %d)", i, got[i].Title(), got[i].Priority, w.title, w.priority)
		}
		if got[i].File != "Readme.md" {
			t.Errorf("section %d file = %q", i, got[i].File)
		}
	}
	all := ""
	for _, s := range got {
		all += s.Markdown + "\n"
	}
	for _, gone := range []string{"badge.svg", "badgen.net", "generated: do not edit", "logo.png", "alice", "bob", "CONTRIBUTING", "MIT"} {
		if strings.Contains(all, gone) {
			t.Errorf("digest still contains %q", gone)
		}
	}
	for _, kept := range []string{"# this is a shell comment, not a heading", "npm install express", "Fast, unopinionated"} {
		if !strings.Contains(all, kept) {
			t.Errorf("digest lost %q", kept)
		}
	}
	// Original bytes, not re-rendered HTML.
	if !strings.Contains(got[1].Markdown, "```sh\n# this is a shell comment") {
		t.Errorf("installation section not verbatim:\n%s", got[1].Markdown)
	}
}

func TestSectionsWithoutHeadings(t *testing.T) {
	got := Sections([]byte("Just a paragraph.\n\nAnd another.\n"), "README")
	if len(got) != 1 || got[0].Priority != model.PriorityOverview || got[0].Markdown != "Just a paragraph.\n\nAnd another." {
		t.Fatalf("got %+v", got)
	}
}

func TestSectionsSetextAndNested(t *testing.T) {
	src := "Title\n=====\n\nIntro.\n\nUsage\n-----\n\nCall it.\n\n### Options\n\nSome.\n\n## Sponsors\n\nACME\n\n### Gold\n\nBig Co\n"
	got := Sections([]byte(src), "README.md")
	var titles []string
	for _, s := range got {
		titles = append(titles, s.Title())
	}
	want := "(introduction)|Usage|Usage › Options"
	if strings.Join(titles, "|") != want {
		t.Fatalf("titles = %q, want %q", strings.Join(titles, "|"), want)
	}
	if got[2].Priority != model.PriorityAPI {
		t.Errorf("Options priority = %d, want API", got[2].Priority)
	}
}

func FuzzSections(f *testing.F) {
	f.Add([]byte(expressLike))
	f.Add([]byte("# a\n\n```\n# not\n```\n## b\ntext\n"))
	f.Add([]byte("<!--\n# x\n-->\n# y\n[a]: http://img.shields.io/x.svg\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, src []byte) {
		secs := Sections(src, "README.md")
		total := 0
		for _, s := range secs {
			if s.Markdown == "" {
				t.Fatal("empty section")
			}
			if s.Markdown != strings.TrimSpace(s.Markdown) {
				t.Fatal("section not trimmed")
			}
			total += len(s.Markdown)
			if utf8.Valid(src) && !utf8.ValidString(s.Markdown) {
				t.Fatal("section split a UTF-8 sequence")
			}
		}
		if total > len(src) {
			t.Fatalf("sections hold %d bytes, input only %d", total, len(src))
		}
	})
}

func TestSectionsH1AfterProseIsASection(t *testing.T) {
	// Rust crate docs: an opening paragraph, then "# Examples".
	secs := Sections([]byte("Typed stores.\n\n# Examples\n\n```\nlet s = 1;\n```\n"), "crate docs")
	if len(secs) != 2 || len(secs[0].Path) != 0 || len(secs[1].Path) != 1 || secs[1].Path[0] != "Examples" {
		t.Fatalf("sections = %+v", secs)
	}
}

// TestRescuedUsageExample: express's hello world sits in its "Table of
// contents" section, which is dropped; as the only usage example it is
// kept, right after the preamble.
func TestRescuedUsageExample(t *testing.T) {
	src := "<a href=\"https://x.example/\">\n  <picture><img alt=\"Logo\" src=\"logo.svg\"></picture>\n</a>\n\n**Fast web framework.**\n\n## Table of contents\n\n- [Installation](#installation)\n\n```js\nimport express from 'express'\nconst app = express()\napp.listen(3000)\n```\n\n## Installation\n\n```bash\nnpm install express\n```\n\n## Contributing\n\n```js\nnot this one\n```\n"
	secs := Sections([]byte(src), "Readme.md")
	var titles []string
	for _, s := range secs {
		titles = append(titles, s.Title())
	}
	if strings.Join(titles, "|") != "(introduction)|Example|Installation" {
		t.Fatalf("sections %q", titles)
	}
	if !strings.Contains(secs[1].Markdown, "app.listen(3000)\n```") || strings.Contains(secs[0].Markdown, "<img") || strings.Contains(secs[0].Markdown, "<a href") {
		t.Fatalf("intro %q, example %q", secs[0].Markdown, secs[1].Markdown)
	}
	// With a usage example of its own, nothing is rescued.
	own := src + "\n## Usage\n\n```js\napp.get('/', h)\n```\n"
	for _, s := range Sections([]byte(own), "Readme.md") {
		if s.Title() == "Example" {
			t.Fatal("rescued an example although Usage has one")
		}
	}
}

// TestLinkOnlyHTMLDropped: sponsor and logo blocks made of links and
// images only are dropped; HTML with text stays.
func TestLinkOnlyHTMLDropped(t *testing.T) {
	src := "# zod\n\nIntro.\n\n<p align=\"center\">\n<a href=\"https://a.example\">Sponsor A</a> · <a href=\"https://b.example\"><img src=\"b.png\"></a>\n</p>\n\n<div>\nReal text here.\n</div>\n"
	md := Sections([]byte(src), "README.md")[0].Markdown
	if strings.Contains(md, "Sponsor A") || !strings.Contains(md, "Real text here.") {
		t.Fatalf("got %q", md)
	}
}

// TestNavigationRowDropped: a row of links with separators between them,
// spaced with &nbsp; and wrapped in spans (zod's "Docs • Discord • 𝕏"), is
// decoration; a row with words between its links is not.
func TestNavigationRowDropped(t *testing.T) {
	nav := "<div align=\"center\">\n  <a href=\"https://a.example/api\">Docs</a>\n  <span>&nbsp;&nbsp;•&nbsp;&nbsp;</span>\n  <a href=\"https://chat.example\">Discord</a>\n  <span>&nbsp;|&nbsp;</span>\n  <a href=\"https://x.example\">𝕏</a>\n  <br />\n</div>\n"
	words := "<div align=\"center\">\n  <a href=\"https://a.example/api\">Docs</a> and more at\n  <a href=\"https://chat.example\">Discord</a>\n</div>\n"
	for _, tt := range []struct {
		name, html string
		kept       bool
	}{
		{"separators", nav, false},
		{"words", words, true},
	} {
		src := "# pkg\n\nIntro.\n\n" + tt.html + "\n## Usage\n\nCall it.\n"
		var all strings.Builder
		for _, s := range Sections([]byte(src), "README.md") {
			all.WriteString(s.Markdown)
		}
		if got := strings.Contains(all.String(), "Discord"); got != tt.kept {
			t.Errorf("%s: kept = %v, want %v:\n%s", tt.name, got, tt.kept, all.String())
		}
		if !strings.Contains(all.String(), "Call it.") {
			t.Errorf("%s: the usage section is lost:\n%s", tt.name, all.String())
		}
	}
}

// TestPresentationHTMLAsText: an HTML block made only of presentational
// elements (a centred title and tagline) becomes its text, with web links
// as markdown links; a block with other elements stays as it is.
func TestPresentationHTMLAsText(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"title", "<p align=\"center\">\n  <img src=\"logo.svg\" alt=\"Logo\" />\n  <h1 align=\"center\">Zod</h1>\n  <p align=\"center\">\n    Schema validation &amp; more\n    <br/>\n    by <a href=\"https://x.example/colin\">@colin</a>\n  </p>\n</p>\n<br/>\n",
			"Zod\nSchema validation & more\nby [@colin](https://x.example/colin)"},
		{"relative link", "<div align=\"center\">\n<a href=\"docs/api.md\">API</a> and <a href='https://e.example/a(b)'>guide</a>\n</div>\n",
			"API and [guide](https://e.example/a%28b%29)"},
		{"table", "<table>\n<tr><td>a</td></tr>\n</table>\n", "<table>\n<tr><td>a</td></tr>\n</table>"},
		{"details", "<details>\n<summary>More</summary>\nHidden text.\n</details>\n", "<details>\n<summary>More</summary>\nHidden text.\n</details>"},
	}
	for _, tt := range tests {
		src := "# pkg\n\nIntro.\n\n" + tt.html + "\nAfter.\n"
		md := Sections([]byte(src), "README.md")[0].Markdown
		want := "# pkg\n\nIntro.\n\n" + tt.want + "\n\nAfter."
		if md != want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, md, want)
		}
	}
}

// TestRuleDropped: a horizontal rule written as HTML is decoration.
func TestRuleDropped(t *testing.T) {
	md := Sections([]byte("# pkg\n\nIntro.\n\n<hr>\n\nMore.\n"), "README.md")[0].Markdown
	if strings.Contains(md, "<hr") || !strings.Contains(md, "More.") {
		t.Fatalf("got %q", md)
	}
}

// TestWrapperTagsDropped: the lines of a centring <div> around markdown
// are HTML blocks of their own, with no text: they go, the markdown stays.
func TestWrapperTagsDropped(t *testing.T) {
	src := "# pkg\n\n<div align=\"center\">\n\n## Fast\n\nIt is **fast**.\n\n</div>\n\nAfter.\n"
	var all strings.Builder
	for _, s := range Sections([]byte(src), "README.md") {
		all.WriteString(s.Markdown + "\n")
	}
	got := all.String()
	if strings.Contains(got, "div") || !strings.Contains(got, "It is **fast**.") || !strings.Contains(got, "After.") {
		t.Fatalf("got %q", got)
	}
}

// TestInlineBadgesDropped: a paragraph of badges written as inline HTML
// (<a><img></a> on each line) is decoration; a paragraph with words
// around its HTML is not.
func TestInlineBadgesDropped(t *testing.T) {
	badges := "<a href=\"https://vercel.com\"><img alt=\"Vercel logo\" src=\"https://img.shields.io/badge/x.svg\"></a>\n<a href=\"https://www.npmjs.com/package/next\"><img alt=\"NPM version\" src=\"https://img.shields.io/npm/v/next.svg\"></a>\n"
	words := "Read <a href=\"https://docs.example\">the docs</a> first.\n"
	src := "# pkg\n\nIntro.\n\n" + badges + "\n" + words + "\nAfter.\n"
	md := Sections([]byte(src), "README.md")[0].Markdown
	if strings.Contains(md, "shields.io") || !strings.Contains(md, "the docs</a> first.") || !strings.Contains(md, "After.") {
		t.Fatalf("got %q", md)
	}
}

// TestTitleWithBadges: a README whose one H1 carries linked badges (one
// of them pointing at a LICENSE file, as the MCP TypeScript SDK's does)
// keeps its sections; the title's text is the words, not the badges.
func TestTitleWithBadges(t *testing.T) {
	src := "# MCP TypeScript SDK [![NPM Version](https://img.shields.io/npm/v/x)](https://www.npmjs.com/package/x) [![MIT licensed](https://img.shields.io/npm/l/x)](https://github.com/o/r/blob/main/LICENSE)\n\nIntro.\n\n## Installation\n\n```bash\nnpm install x\n```\n\n## License\n\nMIT\n"
	secs := Sections([]byte(src), "README.md")
	var titles []string
	for _, s := range secs {
		titles = append(titles, s.Title())
	}
	if len(secs) != 2 || !strings.HasPrefix(secs[0].Markdown, "# MCP TypeScript SDK\n\nIntro.") || !strings.Contains(secs[1].Markdown, "npm install x") {
		t.Fatalf("sections %q", titles)
	}
	doc := md.Parser().Parse(text.NewReader([]byte(src)))
	if heads, _, _ := scan(doc, []byte(src)); heads[0].title != "MCP TypeScript SDK" {
		t.Errorf("title %q", heads[0].title)
	}
}
