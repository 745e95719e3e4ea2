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
//   - HTML comments, everywhere, code blocks and code spans included; an
//     unclosed comment runs to the end of the text, as in a renderer. A
//     comment in a README's code block is visible where the README is
//     rendered, but whether a line opens a code block depends on what
//     precedes it (a fence inside an HTML block opens nothing, and a
//     comment after it is hidden), so guessing would let some through:
//     removing is the safe side, and costs an HTML example its comments;
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
	if !strings.Contains(s, commentOpen) && !strings.Contains(s, "]:") {
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
	return string(uncomment(s, nil))
}

// commentOpen and commentClose delimit an HTML comment.
const (
	commentOpen  = "<!--"
	commentClose = "-->"
)

// prose removes HTML comments and link reference titles.
func prose(s string) string {
	return string(uncomment(s, refDef))
}

// uncomment removes HTML comments from s; unless endLine is nil, it also
// hands it each output line, which it may rewrite. It judges what it has
// written, not its input, so that text joined by a removal
// ("<!<!--x-->--") is judged as the result reads: a comment is found when
// the output ends with "<!--". That makes it idempotent.
func uncomment(s string, endLine func(out []byte, lineStart int) []byte) []byte {
	out := make([]byte, 0, len(s))
	lineStart := 0 // where the current output line starts
	for i := 0; i < len(s); {
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
		case c == '\n' && endLine != nil:
			out = endLine(out, lineStart)
			lineStart = len(out)
		}
	}
	if endLine != nil {
		out = endLine(out, lineStart)
	}
	return out
}

// refDef rewrites the output line that starts at lineStart when it is a
// link reference definition: its title goes, and the whole line when it is
// the comment idiom.
func refDef(out []byte, lineStart int) []byte {
	if !bytes.Contains(out[lineStart:], []byte("]:")) {
		return out // the common case, judged without a copy
	}
	line := string(out[lineStart:])
	body := strings.TrimSuffix(line, "\n")
	m := refDefRE.FindStringSubmatch(body)
	switch {
	case m == nil:
		return out
	case m[2] == "#" || m[2] == "<>" || m[2] == "<#>":
		return out[:lineStart] // the comment idiom: nothing to show
	case m[3] != "":
		return append(out[:lineStart], strings.TrimSuffix(m[1], " ")+line[len(body):]...)
	}
	return out
}

// refDefRE matches a link reference definition on one line: the label and
// destination (1), the destination (2) and the title (3).
var refDefRE = regexp.MustCompile(`^( {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|[^ \t<]\S*)?)(?:[ \t]+("[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$`)
