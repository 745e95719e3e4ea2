package render

import "strings"

// Quote frames text taken from a package (a README section, a doc comment,
// a search snippet) as a markdown block quote: every line starts with "> ",
// an empty one with ">". pkgdocs quotes none of its own lines, so a package
// cannot forge them: a README line identical to the provenance line, a
// heading pkgdocs writes ("## Functions") or its footer reads as quoted
// package text, and a code fence the package leaves open ends with the
// quote, before pkgdocs' next line. The text after a quote must start
// after a blank line (else a renderer continues the quote's paragraph).
func Quote(s string) string {
	s = strings.Trim(s, "\n")
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/16 + 4)
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString(">\n")
			continue
		}
		b.WriteString("> ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
