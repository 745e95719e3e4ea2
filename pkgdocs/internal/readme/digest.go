// Package readme turns a README (or any markdown document) into a digest of
// sections: it walks goldmark's AST so that '#' lines inside code fences never
// count as headings, drops sections nobody needs in an editor (contributors,
// license, sponsors, changelog, ...), strips badges and HTML comments, and
// returns every kept section as its original markdown bytes.
package readme

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

var (
	dropRE     = regexp.MustCompile(`(?i)\b(contribut\w*|licen[cs]es?|authors?|sponsors?|sponsorship|backers?|funding|donat\w*|people|team|triagers?|maintainers?|acknowledg\w*|credits?|code of conduct|changelog|change log|release notes|security( policy)?|badges?|table of contents|toc|star history|stargazers)\b`)
	usageRE    = regexp.MustCompile(`(?i)\b(install\w*|getting started|get started|quick ?start|usage|set ?up|how to use|basic use|overview|introduction|hello,? world)\b`)
	minorRE    = regexp.MustCompile(`(?i)^(features?|why\b.*|highlights|motivation|philosophy|browser support|platform support|docs (&|and) community|community|related( projects)?|see also)$`)
	apiRE      = regexp.MustCompile(`(?i)\b(api|methods?|functions?|options?|config\w*|reference|props|parameters?|arguments?|commands?|cli|interfaces?|types?|hooks?|classes|properties)\b`)
	examplesRE = regexp.MustCompile(`(?i)\bexamples?\b`)
	refDefRE   = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)`)
	badgeURLRE = regexp.MustCompile(`(?i)(shields\.io|badgen\.net|badge|travis-ci|coveralls|codecov|circleci|appveyor|github\.com/[^ ]+/workflows/|/actions/workflows/|opencollective\.com/[^ ]+/(backers|sponsors)|\.svg(\?|$))`)
	blankRunRE = regexp.MustCompile(`\n[ \t]*\n([ \t]*\n)+`)
)

// Sections splits src into kept sections, in document order. file names
// the document (e.g. "README.md") for provenance.
func Sections(src []byte, file string) []model.Section {
	doc := md.Parser().Parse(text.NewReader(src))
	heads, cuts, codes := scan(doc, src)
	var rescued []code

	var out []model.Section
	if len(heads) == 0 || heads[0].start > 0 {
		end := len(src)
		if len(heads) > 0 {
			end = heads[0].start
		}
		if body := clean(src, 0, end, cuts); body != "" {
			out = append(out, model.Section{Markdown: body, Priority: model.PriorityOverview, File: file})
		}
	}
	// A single H1 before any prose is the document title: its text is the
	// preamble and it does not prefix the other sections' paths. (In crate
	// docs, "text, then # Examples" is a section, not a title.)
	titled := len(heads) > 0 && heads[0].level == 1 && countLevel(heads, 1) == 1 && len(out) == 0
	type frame struct {
		level    int
		title    string
		priority model.Priority
		dropped  bool
	}
	var stack []frame
	for i, h := range heads {
		end := len(src)
		if i+1 < len(heads) {
			end = heads[i+1].start
		}
		for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		parent := frame{priority: model.PriorityRest}
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		f := frame{level: h.level, title: h.title, priority: classify(h.title, parent.priority)}
		// The document's title names the package, never a section to drop
		// (a title mentioning a licence would drop the whole README).
		f.dropped = parent.dropped || dropRE.MatchString(h.title) && !(titled && i == 0)
		if titled && i == 0 {
			f.priority = model.PriorityOverview
		}
		stack = append(stack, f)
		if f.dropped {
			rescued = append(rescued, codeBlocks(codes, h.start, end)...)
			continue
		}
		body := clean(src, h.start, end, cuts)
		if strings.Count(body, "\n") == 0 && !(titled && i == 0) {
			continue // a heading with nothing under it: its subsections carry the content
		}
		if body == "" {
			continue
		}
		var path []string
		for j, fr := range stack {
			if titled && j == 0 && i != 0 {
				continue
			}
			path = append(path, fr.title)
		}
		if titled && i == 0 {
			path = nil
		}
		out = append(out, model.Section{Path: path, Markdown: body, Priority: f.priority, File: file})
	}
	return rescue(out, rescued, src, file)
}

// code is a fenced code block: its byte range and language.
type code struct {
	span
	lang string
}

// codeBlocks returns the code blocks within [start, end).
func codeBlocks(codes []code, start, end int) []code {
	var out []code
	for _, c := range codes {
		if c.start >= start && c.end <= end {
			out = append(out, c)
		}
	}
	return out
}

// shellLangs are the languages of install commands, not usage examples.
var shellLangs = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "console": true, "zsh": true, "powershell": true, "cmd": true, "text": true, "txt": true}

// rescue keeps the first usage example of a dropped section (express's
// hello world sits under "Table of contents") when the kept sections hold
// no usage example of their own, as a section right after the preamble.
func rescue(out []model.Section, dropped []code, src []byte, file string) []model.Section {
	for _, s := range out {
		if hasUsageCode(s.Markdown) {
			return out
		}
	}
	for _, c := range dropped {
		if shellLangs[strings.ToLower(c.lang)] {
			continue
		}
		ex := model.Section{Path: []string{"Example"}, Markdown: "## Example\n\n" + strings.TrimSpace(string(src[c.start:c.end])), Priority: model.PriorityUsage, File: file}
		at := 0
		if len(out) > 0 && len(out[0].Path) == 0 {
			at = 1 // after the preamble
		}
		return append(out[:at], append([]model.Section{ex}, out[at:]...)...)
	}
	return out
}

// hasUsageCode reports a fenced code block in a language other than a
// shell's.
func hasUsageCode(markdown string) bool {
	for _, l := range strings.Split(markdown, "\n") {
		if f := fenceMarker(l); f != "" {
			lang := strings.Fields(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), f[:1])) + " ")
			if len(lang) > 0 && !shellLangs[strings.ToLower(lang[0])] {
				return true
			}
		}
	}
	return false
}

func countLevel(heads []heading, level int) int {
	n := 0
	for _, h := range heads {
		if h.level == level {
			n++
		}
	}
	return n
}

func classify(title string, inherited model.Priority) model.Priority {
	switch {
	case minorRE.MatchString(title):
		return model.PriorityRest
	case usageRE.MatchString(title):
		return model.PriorityUsage
	case examplesRE.MatchString(title):
		return model.PriorityExamples
	case apiRE.MatchString(title):
		return model.PriorityAPI
	}
	if inherited == model.PriorityOverview {
		return model.PriorityRest
	}
	return inherited
}

type heading struct {
	start int // byte offset of the heading's line start
	level int
	title string
}

// A span is a byte range of the document that the digest cuts out, or
// replaces by text when text is not empty.
type span struct {
	start, end int
	text       string
}

// scan collects top-level headings, byte ranges to remove (badge-only
// paragraphs, HTML comments, decoration-only HTML: images and links with
// no other text) and fenced code blocks.
func scan(doc ast.Node, src []byte) ([]heading, []span, []code) {
	var heads []heading
	var cuts []span
	var codes []code
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			if c, ok := fenced(n, src); ok {
				codes = append(codes, c)
			}
		case *ast.Heading:
			h := heading{start: lineStart(src, n.Pos()), level: n.Level, title: headingTitle(n, src)}
			heads = append(heads, h)
			// Badges in an ATX heading line ("# Name [![npm](…)](…)") go;
			// the line keeps its words.
			if sp := lineSpan(src, n.Lines()); hasImage(n) && sp.start < len(src) && src[sp.start] == '#' && h.title != "(untitled)" {
				sp.text = strings.Repeat("#", n.Level) + " " + h.title + "\n"
				cuts = append(cuts, sp)
			}
		case *ast.Paragraph:
			if badgeOnly(n) || rawHTMLOnly(n) && decorationHTML(n.Lines().Value(src)) {
				cuts = append(cuts, lineSpan(src, n.Lines()))
			}
		case *ast.HTMLBlock:
			raw := n.Lines().Value(src)
			if n.HasClosure() {
				raw = append(raw, n.ClosureLine.Value(src)...)
			}
			s := lineSpan(src, n.Lines())
			if n.HasClosure() && n.ClosureLine.Stop > s.end {
				s.end = lineEnd(src, n.ClosureLine.Stop)
			}
			switch {
			case n.HTMLBlockType == ast.HTMLBlockType2 || decorationHTML(raw):
				cuts = append(cuts, s)
			case n.HTMLBlockType == ast.HTMLBlockType6:
				// Presentational HTML becomes its text; a wrapper with
				// none (<div align="center"> around markdown) goes.
				if t, ok := presentationText(raw); ok {
					if t != "" {
						s.text = t + "\n" // the cut takes the block's last line break
					}
					cuts = append(cuts, s)
				}
			}
		}
	}
	return heads, cuts, codes
}

// fenced returns a fenced code block's span, fences included, and its
// language.
func fenced(n *ast.FencedCodeBlock, src []byte) (code, bool) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return code{}, false
	}
	first := lines.At(0).Start
	if first <= 0 || first > len(src) {
		return code{}, false
	}
	start := lineStart(src, first-1) // the opening fence line
	end := lineEnd(src, max(lines.At(lines.Len()-1).Stop-1, first))
	end = lineEnd(src, end) // the closing fence line
	lang := ""
	if n.Info != nil {
		if f := strings.Fields(string(n.Info.Segment.Value(src))); len(f) > 0 {
			lang = f[0]
		}
	}
	return code{span{start: start, end: end}, lang}, true
}

// headingTitle returns a heading's visible text: the text of its links
// and code spans, without images (badges in a title line) or HTML.
func headingTitle(n *ast.Heading, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Image, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	title := strings.Join(strings.Fields(b.String()), " ")
	if title == "" {
		title = "(untitled)"
	}
	return title
}

// hasImage reports whether n holds an image.
func hasImage(n ast.Node) bool {
	found := false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := c.(*ast.Image); ok && entering {
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

func lineStart(src []byte, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	if pos < 0 {
		return 0
	}
	return bytes.LastIndexByte(src[:pos], '\n') + 1
}

func lineEnd(src []byte, pos int) int {
	if pos >= len(src) {
		return len(src)
	}
	if i := bytes.IndexByte(src[pos:], '\n'); i >= 0 {
		return pos + i + 1
	}
	return len(src)
}

func lineSpan(src []byte, lines *text.Segments) span {
	if lines.Len() == 0 {
		return span{}
	}
	first, last := lines.At(0), lines.At(lines.Len()-1)
	stop := last.Stop
	if stop > 0 && stop <= len(src) && src[stop-1] == '\n' {
		stop--
	}
	return span{start: lineStart(src, first.Start), end: lineEnd(src, stop)}
}

// clean returns src[start:end] without the cut spans and without badge
// reference definitions, trimmed of surrounding blank lines.
func clean(src []byte, start, end int, cuts []span) string {
	var b strings.Builder
	pos := start
	for _, c := range cuts {
		if c.end <= pos || c.start >= end || c.start >= c.end {
			continue
		}
		if c.start > pos {
			b.Write(src[pos:c.start])
		}
		if c.text != "" && c.start >= pos {
			b.WriteString(c.text)
		}
		pos = max(pos, c.end)
	}
	if pos < end {
		b.Write(src[pos:end])
	}
	return strings.TrimSpace(blankRunRE.ReplaceAllString(dropBadgeRefs(b.String()), "\n\n"))
}

// dropBadgeRefs removes reference-link definitions that point at badge
// services, outside code fences.
func dropBadgeRefs(s string) string {
	if !strings.Contains(s, "]:") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	var fence string
	for _, l := range lines {
		if f := fenceMarker(l); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(strings.TrimSpace(l), fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), fence[:1])) == "":
				fence = ""
			}
		} else if fence == "" {
			if m := refDefRE.FindStringSubmatch(l); m != nil && badgeURLRE.MatchString(m[1]) {
				continue
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// fenceMarker returns the fence run (``` or ~~~, at least three) that starts
// line l, or "".
func fenceMarker(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 {
		return ""
	}
	c := t[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}
