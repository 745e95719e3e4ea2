package npm

import (
	"regexp"
	"strings"
)

var (
	// deprecatedRE matches a sentence declaring a package deprecated or
	// abandoned: "TSLint is deprecated.", "This package has been
	// deprecated", "Deprecated: use x", "no longer maintained".
	deprecatedRE = regexp.MustCompile(`(?i)\b(?:is|are|has been|have been|was|now)\s+(?:now\s+|officially\s+)?deprecated\b|^(?:warning:\s*)?deprecated\b|\bno longer (?:maintained|supported)\b`)
	mdLinkRE     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	emojiCodeRE  = regexp.MustCompile(`:[a-z_]+:`)
)

// maxDeprecationParagraphs is how many paragraphs at the top of a README
// are read for a deprecation notice: one that opens the README, not one
// further down about an old option.
const maxDeprecationParagraphs = 2

// readmeDeprecation returns the notice a README opens with when it
// declares the package deprecated (node-sass: "LibSass and Node Sass are
// deprecated", tslint: "TSLint is deprecated."), as plain text, or "".
// Only the first paragraphs before the first section are read; headings,
// badges and HTML lines are passed over.
func readmeDeprecation(md []byte) string {
	text := string(md[:min(len(md), 8<<10)])
	paragraphs := 0
	var para []string
	flush := func() string {
		if len(para) == 0 {
			return ""
		}
		paragraphs++
		p := plainText(strings.Join(para, " "))
		para = para[:0]
		if deprecatedRE.MatchString(p) {
			return firstSentences(p, 300)
		}
		return ""
	}
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "##") || strings.HasPrefix(l, "```"):
			return flush()
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "<") || strings.HasPrefix(l, "[![") || strings.HasPrefix(l, "!["):
			if n := flush(); n != "" {
				return n
			}
			if paragraphs >= maxDeprecationParagraphs {
				return ""
			}
		default:
			para = append(para, strings.TrimLeft(l, "> "))
		}
	}
	return flush()
}

// plainText drops markdown emphasis, links' targets and emoji codes.
func plainText(s string) string {
	s = mdLinkRE.ReplaceAllString(s, "$1")
	s = emojiCodeRE.ReplaceAllString(s, "")
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// firstSentences cuts s after the sentence holding the deprecation, at
// most limit bytes.
func firstSentences(s string, limit int) string {
	loc := deprecatedRE.FindStringIndex(s)
	if loc != nil {
		if i := strings.Index(s[loc[1]:], ". "); i >= 0 {
			s = s[:loc[1]+i+1]
		}
	}
	if len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
