package untrusted

import (
	"bytes"
	"regexp"
	"strings"
)

// Text returns prose taken from a package (markdown, doc comments,
// docstrings, JSDoc, descriptions) without hidden characters and without
// what a markdown renderer never shows:
//
//   - HTML comments, outside fenced code blocks (in code they are visible
//     and often meant: an HTML example); an unclosed comment runs to the
//     end of the text, as in a renderer; inline code spans get no
//     exemption (removing is the safe side);
//   - the title of a link reference definition (`[x]: url "title"`), and a
//     definition whose destination is "#" or "<>" whole: the "[//]: # (…)"
//     comment idiom.
//
// Text is idempotent and keeps valid UTF-8 valid. Pure ASCII with no '<'
// and no "]:" is returned as it is after one pass over its bytes.
func Text(s string) string {
	if clean(s, true) {
		return s
	}
	if !clean(s, false) {
		s = runes(s)
	}
	if !strings.Contains(s, "<!--") && !strings.Contains(s, "]:") {
		return s
	}
	return prose(s)
}

// Signature returns a declaration as Code does, without HTML comments: a
// signature may carry the JSDoc or doc comments of its members, which
// editors render as markdown, and no declaration needs "<!--" otherwise.
func Signature(s string) string {
	s = Code(s)
	if !strings.Contains(s, commentOpen) {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '-')
		if k < 0 {
			out = append(out, s[i:]...)
			break
		}
		out = append(out, s[i:i+k+1]...)
		i += k + 1
		if bytes.HasSuffix(out, []byte(commentOpen)) {
			out = out[:len(out)-len(commentOpen)]
			if k := strings.Index(s[i:], commentClose); k >= 0 {
				i += k + len(commentClose)
			} else {
				i = len(s)
			}
		}
	}
	return string(out)
}

// commentOpen and commentClose delimit an HTML comment.
const (
	commentOpen  = "<!--"
	commentClose = "-->"
)

// prose removes HTML comments and link reference titles outside fenced
// code. It works on what it has written, not on its input, so that text
// joined by a removal ("<!<!--x-->--") is judged as the result reads, which
// makes it idempotent: a comment is detected when the output ends with
// "<!--", and whether a line opens a fence is decided on the output line.
func prose(s string) string {
	out := make([]byte, 0, len(s))
	lineStart := 0 // where the current output line starts
	fence := ""    // the run of the open code fence, "" outside code
	for i := 0; i < len(s); {
		if fence != "" {
			end := lineEnd(s, i)
			line := s[i:end]
			out = append(out, line...)
			if f := fenceRun(line); f != "" && closes(line, f, fence) {
				fence = ""
			}
			i = end
			lineStart = len(out)
			continue
		}
		// Copy up to the next byte that may end a comment opening or a line.
		k := strings.IndexAny(s[i:], "-\n")
		if k < 0 {
			out = append(out, s[i:]...)
			break
		}
		out = append(out, s[i:i+k+1]...)
		c := s[i+k]
		i += k + 1
		switch {
		case c == '-' && bytes.HasSuffix(out, []byte(commentOpen)):
			out = out[:len(out)-len(commentOpen)]
			// A comment a reader escaped ("\<!--", as Go doc comments
			// become markdown) goes too, backslash included.
			out = bytes.TrimSuffix(out, []byte{'\\'})
			if k := strings.Index(s[i:], commentClose); k >= 0 {
				i += k + len(commentClose)
			} else {
				i = len(s)
			}
		case c == '\n':
			out, fence = endLine(out, lineStart)
			lineStart = len(out)
		}
	}
	out, _ = endLine(out, lineStart)
	return string(out)
}

// lineEnd returns the index just after the newline that ends the line
// starting at i, or len(s).
func lineEnd(s string, i int) int {
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		return i + k + 1
	}
	return len(s)
}

// endLine judges the output line that starts at lineStart, outside code:
// it may open a fence, or be a reference definition whose title goes. It
// returns the output and the fence the line opens, if any.
func endLine(out []byte, lineStart int) ([]byte, string) {
	raw := bytes.TrimLeft(out[lineStart:], " ")
	if len(raw) == 0 || raw[0] != '`' && raw[0] != '~' && !bytes.Contains(raw, []byte("]:")) {
		return out, "" // the common case, judged without a copy
	}
	line := string(out[lineStart:])
	if f := fenceRun(line); f != "" && (f[0] == '~' || !strings.Contains(line[strings.Index(line, f)+len(f):], "`")) {
		return out, f
	}
	if !strings.Contains(line, "]:") {
		return out, ""
	}
	body := strings.TrimSuffix(line, "\n")
	m := refDefRE.FindStringSubmatch(body)
	if m == nil {
		return out, ""
	}
	switch {
	case m[2] == "#" || m[2] == "<>" || m[2] == "<#>":
		return out[:lineStart], "" // the comment idiom: nothing to show
	case m[3] != "":
		return append(out[:lineStart], strings.TrimSuffix(m[1], " ")+line[len(body):]...), ""
	}
	return out, ""
}

// refDefRE matches a link reference definition on one line: the label and
// destination (1), the destination (2) and the title (3).
var refDefRE = regexp.MustCompile(`^( {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|[^ \t<]\S*)?)(?:[ \t]+("[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$`)

// fenceRun returns the run of ` or ~ (three or more, indented at most three
// spaces) that starts line l, or "".
func fenceRun(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// closes reports whether line l, whose fence run is f, closes the fence
// opened by open: same character, at least as long, nothing after it.
func closes(l, f, open string) bool {
	return f[0] == open[0] && len(f) >= len(open) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), f[:1])) == ""
}
