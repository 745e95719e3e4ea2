package search

import (
	"strings"
)

// Snippet returns the lines of text around the line that matches the most
// terms (among equals, the first one in a code block: code answers "how do
// I" questions best), radius lines either side. A code fence cut by the window is
// reopened at the top or closed at the bottom, so the snippet is valid
// markdown on its own.
func Snippet(text string, terms []string, radius int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	best, bestScore := 0, -1
	var fence string
	for i, l := range lines {
		inCode := fence != ""
		if f := fenceRun(l); f != "" {
			if fence == "" {
				fence = f
			} else if f[0] == fence[0] && len(f) >= len(fence) {
				fence = ""
			}
		}
		toks := Tokenize(l)
		s := 0
		for _, t := range terms {
			for _, tok := range toks {
				if tok == t {
					s++
					break
				}
			}
		}
		s *= 2
		if inCode && s > 0 {
			s++
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	from, to := max(0, best-radius), min(len(lines), best+radius+1)
	// Which fence, if any, is open at each window edge?
	var open, openLine string
	var openAtFrom, openAtFromLine string
	for i := 0; i < to; i++ {
		if i == from {
			openAtFrom, openAtFromLine = open, openLine
		}
		f := fenceRun(lines[i])
		if f == "" {
			continue
		}
		if open == "" {
			open, openLine = f, lines[i]
		} else if f[0] == open[0] && len(f) >= len(open) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines[i]), f[:1])) == "" {
			open, openLine = "", ""
		}
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…\n")
	}
	if openAtFrom != "" {
		b.WriteString(strings.TrimSpace(openAtFromLine) + "\n")
	}
	for _, l := range lines[from:to] {
		b.WriteString(l + "\n")
	}
	if open != "" {
		b.WriteString(open + "\n")
	}
	if to < len(lines) {
		b.WriteString("…\n")
	}
	return b.String()
}

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
