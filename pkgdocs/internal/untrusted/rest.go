package untrusted

import (
	"regexp"
	"strings"
)

// RestComments returns reStructuredText (Python docstrings, a long
// description in reST) without its comments: an explicit markup line
// (".. text") that is not a directive ("..  note::"), a link target
// (".. _name:"), a footnote or citation (".. [1]") or a substitution
// (".. |name|"), with the lines indented under it. Sphinx and PyPI show
// none of it, as a browser shows no HTML comment. An empty comment ("..")
// followed by a blank line is removed alone, as docutils reads it.
func RestComments(s string) string {
	if !strings.Contains(s, "..") {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimLeft(l, " \t")
		if !restComment(t) {
			b.WriteString(l)
			continue
		}
		ind := len(l) - len(t)
		if strings.TrimSpace(t) == ".." && (i+1 == len(lines) || strings.TrimSpace(lines[i+1]) == "") {
			continue // an empty comment consumes nothing after it
		}
		last := i // the last line of the comment
		for j := i + 1; j < len(lines); j++ {
			lt := strings.TrimLeft(lines[j], " \t")
			if strings.TrimSpace(lt) == "" {
				continue
			}
			if len(lines[j])-len(lt) <= ind {
				break
			}
			last = j
		}
		i = last
	}
	return b.String()
}

// restDirectiveRE matches what may follow ".. " without making a comment:
// a directive ("note::", "code-block::", "py:function::"), a link target
// ("_name:", "__"), a footnote or citation ("[1]") and a substitution
// definition ("|name|").
var restDirectiveRE = regexp.MustCompile(`^(?:[A-Za-z0-9][\w.:+-]*?::|_|\[|\|)`)

// restComment reports whether t (a line without its indentation) starts a
// reST comment.
func restComment(t string) bool {
	rest, ok := strings.CutPrefix(t, "..")
	if !ok {
		return false
	}
	if r := strings.TrimRight(rest, "\r\n"); r != "" && r[0] != ' ' && r[0] != '\t' {
		return false // "...", "..x": text, not markup
	}
	return !restDirectiveRE.MatchString(strings.TrimLeft(rest, " \t"))
}
