// Package render turns a model.Package into budgeted markdown: a provenance
// header, content packed by priority into pages that each fit a token
// budget, code fences that are never cut, and a footer that says what was
// left out and how to page to it.
package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Budget limits, in estimated tokens.
const (
	HardCap   = 8000 // one page never holds more than this, whatever the caller asks; more is paged
	MinBudget = 400  // smallest budget that still fits a header and a footer
)

// Tokens estimates the token count of s as ceil(bytes/3.5), which is
// conservative for code-heavy markdown.
func Tokens(s string) int {
	return (2*len(s) + 6) / 7
}

// ClampBudget applies the default, the floor and the hard cap to a
// caller's maxTokens.
func ClampBudget(maxTokens, def int) int {
	if maxTokens <= 0 {
		maxTokens = def
	}
	return min(max(maxTokens, MinBudget), HardCap)
}

// formatTokens prints 2400 as "2.4k".
func formatTokens(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d", n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}

// FencesBalanced reports whether every code fence opened in s is closed.
func FencesBalanced(s string) bool {
	var open string
	for _, l := range strings.Split(s, "\n") {
		f := fenceRun(l)
		if f == "" {
			continue
		}
		switch {
		case open == "":
			open = f
		case closes(l, f, open):
			open = ""
		}
	}
	return open == ""
}

// fenceRun returns the run of ` or ~ (three or more) that opens line l.
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

// Clip shortens markdown to at most maxTokens, cutting only between lines.
// A code fence open at the cut is closed, and a note says how many lines
// were left out. It returns s unchanged when it fits.
func Clip(s string, maxTokens int) (string, bool) {
	if Tokens(s) <= maxTokens {
		return s, false
	}
	lines := strings.Split(s, "\n")
	const noteReserve = 40 // bytes for the closing fence and the note
	limit := maxTokens*7/2 - noteReserve
	var b strings.Builder
	var open string
	kept := 0
	for i, l := range lines {
		extra := 0
		if open != "" {
			extra = len(open) + 1
		}
		if b.Len()+len(l)+1+extra > limit {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
		kept = i + 1
		if f := fenceRun(l); f != "" {
			if open == "" {
				open = f
			} else if closes(l, f, open) {
				open = ""
			}
		}
	}
	if kept == 0 {
		// Not even one line fits: cut the first line at a rune boundary.
		first := lines[0]
		n := max(limit, 0)
		for n > 0 && n < len(first) && !utf8.RuneStart(first[n]) {
			n--
		}
		if n > len(first) {
			n = len(first)
		}
		if fenceRun(first) != "" {
			n = 0
		}
		b.WriteString(first[:n])
		b.WriteString("…\n")
		kept = 1
	}
	if open != "" {
		b.WriteString(open)
		b.WriteByte('\n')
	}
	if kept > 0 && strings.HasPrefix(lines[kept-1], ">") && open == "" {
		b.WriteByte('\n') // the note is pkgdocs', not part of a quote
	}
	fmt.Fprintf(&b, "*… (%d more lines)*", len(lines)-kept)
	return b.String(), true
}
