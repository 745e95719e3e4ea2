package readme

import (
	"bytes"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// The HTML READMEs carry: badges, logos and navigation rows, which the
// digest drops, and presentational blocks, which it turns into their text.

var (
	tagRE     = regexp.MustCompile(`(?s)<[^>]*>`)
	anchorRE  = regexp.MustCompile(`(?is)<a\b[^>]*>.*?</a>`)
	tagNameRE = regexp.MustCompile(`^</?([A-Za-z][A-Za-z0-9]*)`)
	hrefRE    = regexp.MustCompile(`(?i)\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')`)

	// separatorEntities removes the entities navigation rows space and
	// separate their links with.
	separatorEntities = strings.NewReplacer("&nbsp;", "", "&#160;", "", "&middot;", "", "&bull;", "")
	// urlEscaper keeps a URL from ending a markdown link early.
	urlEscaper = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20")
)

// badgeOnly reports a paragraph made only of images (possibly linked) and
// whitespace: the badge rows at the top of most READMEs.
func badgeOnly(p *ast.Paragraph) bool {
	images := 0
	ok := true
	ast.Walk(p, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n == p {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			images++
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			return ast.WalkContinue, nil
		case *ast.Text:
			if !n.SoftLineBreak() && !n.HardLineBreak() && n.Segment.Len() > 0 {
				// whitespace between badges is allowed
				ok = false
			}
		case *ast.RawHTML:
			// <br> and similar between badges
		default:
			ok = false
		}
		return ast.WalkContinue, nil
	})
	return ok && images > 0
}

// rawHTMLOnly reports a paragraph made only of inline HTML and the text
// between its tags (linked badge images written as <a><img></a>), which
// decorationHTML then judges.
func rawHTMLOnly(p *ast.Paragraph) bool {
	html := false
	for c := p.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.RawHTML:
			html = true
		case *ast.Text:
		default:
			return false
		}
	}
	return html
}

// decorationHTML reports HTML with no visible text: logos, badge rows,
// centring wrappers, rules.
func decorationHTML(raw []byte) bool {
	if !bytes.Contains(raw, []byte("<img")) && !bytes.Contains(raw, []byte("<picture")) && !bytes.Contains(raw, []byte("<br")) && !bytes.Contains(raw, []byte("<hr")) && !bytes.Contains(raw, []byte("<a ")) {
		return false
	}
	rest := anchorRE.ReplaceAllString(string(raw), "")
	rest = tagRE.ReplaceAllString(rest, "")
	rest = separatorEntities.Replace(rest)
	// What is left between the links is separators and space, or text.
	return strings.IndexFunc(rest, isText) < 0
}

// presentationTags are the HTML elements READMEs use to centre and style a
// title, a tagline or a line of links: a block made only of them says
// nothing its text does not.
var presentationTags = map[string]bool{
	"p": true, "div": true, "center": true, "span": true, "br": true, "img": true, "a": true,
	"picture": true, "source": true, "b": true, "strong": true, "i": true, "em": true,
	"small": true, "sub": true, "sup": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "hr": true,
}

// presentationText returns the visible text of an HTML block made only of
// presentationTags (a centred title and tagline, say), a line for each line
// that has some ("" for a bare wrapper tag), and reports whether the block
// is one. Blocks with any other element (tables, lists, details, code)
// stay as they are.
func presentationText(raw []byte) (string, bool) {
	for _, tag := range tagRE.FindAll(raw, -1) {
		m := tagNameRE.FindSubmatch(tag)
		if m == nil || !presentationTags[strings.ToLower(string(m[1]))] {
			return "", false
		}
	}
	var lines []string
	visible := tagRE.ReplaceAllString(anchorRE.ReplaceAllStringFunc(string(raw), markdownLink), "")
	for _, l := range strings.Split(visible, "\n") {
		l = strings.Join(strings.Fields(html.UnescapeString(l)), " ")
		if strings.IndexFunc(l, isText) >= 0 {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n"), true
}

// markdownLink rewrites an HTML anchor as a markdown link when it has text
// and points at a web address; an anchor with a relative or fragment link
// becomes its text, one without text (a linked logo) nothing.
func markdownLink(a string) string {
	open, _, _ := strings.Cut(a, ">")
	inner := strings.TrimSpace(tagRE.ReplaceAllString(strings.TrimPrefix(a, open+">"), ""))
	if inner == "" {
		return ""
	}
	m := hrefRE.FindStringSubmatch(open)
	if m == nil {
		return inner
	}
	href := html.UnescapeString(m[1] + m[2])
	if !strings.HasPrefix(href, "https://") && !strings.HasPrefix(href, "http://") {
		return inner
	}
	return "[" + inner + "](" + urlEscaper.Replace(href) + ")"
}

// isText reports a character that is neither space nor one of the
// separators navigation rows put between their links.
func isText(r rune) bool {
	return !strings.ContainsRune(" \t\r\n|·•-/\u00a0", r)
}
