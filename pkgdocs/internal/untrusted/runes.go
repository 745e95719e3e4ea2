// Package untrusted cleans text taken from a package (README, doc
// comments, docstrings, JSDoc, signatures, names) before it reaches an
// answer. Such text is data, yet an agent reads it: whatever a person
// reviewing the package cannot see must not reach the agent either.
//
// What is removed, everywhere, code included (a Trojan Source attack hides
// in code):
//
//   - Unicode tag characters (U+E0000–U+E007F), which many tokenizers read
//     as ASCII although nothing displays them;
//   - bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
//     U+061C);
//   - zero-width and other invisible format characters (U+200B, U+2060–U+206F,
//     U+FEFF, U+180B–U+180F, U+00AD soft hyphen, U+034F, Hangul and Khmer
//     fillers, interlinear annotation and musical formatting controls);
//   - the code points Unicode reserves as default ignorable (U+FFF0–U+FFF8,
//     U+E0080–U+E0FFF), which a renderer shows as nothing once assigned;
//   - variation selectors, which can smuggle bytes after a visible
//     character (U+FE00–U+FE0D, U+E0100–U+E01EF), and U+FE0E/U+FE0F except
//     one right after a visible character (the emoji presentation of ❤️ and
//     keycaps);
//   - ZWJ (U+200D) and ZWNJ (U+200C) except one between two non-ASCII
//     letters, marks or symbols: emoji sequences (👩‍💻) and the scripts
//     that need them (Persian, Indic) keep them, and nothing else does;
//   - control characters other than tab and newline (terminal escapes
//     among them); CR and the line and paragraph separators become
//     newlines; invalid UTF-8 becomes U+FFFD.
//
// What this costs legitimate text is small and visible: a subdivision flag
// (🏴 followed by tag characters) shows as a black flag; right-to-left text
// loses the marks that placed its punctuation (the letters, and their
// order, stay); a Mongolian variant form falls back to its default.
//
// In prose (Text), HTML comments are removed too, code blocks included, as
// are the titles of link reference definitions and the "[//]: #" comment
// idiom, which no renderer shows; signatures (Signature) lose HTML
// comments as well. Example files (Code) keep them: there they are code.
package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether r is always removed: a code point that displays
// as nothing, or changes how other text displays. ZWJ, ZWNJ, U+FE0E and
// U+FE0F are not among them (they are kept in some places, see the
// package comment); CR, U+2028 and U+2029 are not either (they become
// newlines).
func Hidden(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r < 0x7F:
		return false
	case r <= 0x9F: // DEL and C1 controls
		return true
	}
	switch r {
	case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x200B, 0x200E, 0x200F, 0x3164, 0xFEFF, 0xFFA0:
		return true
	}
	switch {
	case r >= 0x180B && r <= 0x180F, // Mongolian variation selectors, vowel separator
		r >= 0x202A && r <= 0x202E,   // embeddings and overrides
		r >= 0x2060 && r <= 0x206F,   // word joiner, invisible operators, isolates, deprecated formats
		r >= 0xFE00 && r <= 0xFE0D,   // variation selectors 1-14
		r >= 0xFFF9 && r <= 0xFFFB,   // interlinear annotation
		r >= 0x1BCA0 && r <= 0x1BCA3, // shorthand format controls
		r >= 0x1D173 && r <= 0x1D17A, // musical formatting
		r >= 0xFFF0 && r <= 0xFFF8,   // reserved, default ignorable
		r >= 0xE0000 && r <= 0xE0FFF: // tags, variation selectors 17-256, the rest reserved and default ignorable
		return true
	}
	return false
}

// joiner reports ZWNJ and ZWJ.
func joiner(r rune) bool { return r == 0x200C || r == 0x200D }

// presentation reports the text and emoji presentation selectors.
func presentation(r rune) bool { return r == 0xFE0E || r == 0xFE0F }

// joinable reports a character a joiner may stand beside: a non-ASCII
// letter, mark or symbol (emoji are symbols, skin tones modifiers).
func joinable(r rune) bool {
	return r >= 0x80 && !Hidden(r) && !joiner(r) && !presentation(r) &&
		(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsSymbol(r))
}

// Code returns s without hidden characters (see the package comment),
// for text shown as it is: signatures, example code, names.
func Code(s string) string {
	if clean(s, false) {
		return s
	}
	return runes(s)
}

// Line returns s as Code does, on one line: newlines and tabs become
// spaces. It is for names, titles and paths that pkgdocs writes inside its
// own lines.
func Line(s string) string {
	s = Code(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}

// clean reports, in one pass over the bytes, that s is printable ASCII
// (tab and newline allowed) and so has nothing to remove; prose also must
// hold no '<' (a comment) and no "]:" (a reference definition).
func clean(s string, prose bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x7F, c < 0x20 && c != '\t' && c != '\n':
			return false
		case !prose:
		case c == '<', c == ']' && i+1 < len(s) && s[i+1] == ':':
			return false
		}
	}
	return true
}

// runes removes hidden characters rune by rune. Runs of characters that
// stay are copied whole, and text with nothing to remove is returned as it
// is, without a copy.
func runes(s string) string {
	var out []byte       // nil until the first change
	start := 0           // the first byte not yet copied to out
	var prev rune = '\n' // the last rune kept; a line start is no base
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7F || c == '\n' || c == '\t' {
			prev = rune(c) // printable ASCII: the common case
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		keep, repl := true, rune(-1)
		switch {
		case r == utf8.RuneError && size == 1:
			repl = utf8.RuneError // invalid UTF-8 shows as U+FFFD
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				keep = false // CRLF: the LF follows
			} else {
				repl = '\n'
			}
		case r == 0x2028 || r == 0x2029:
			repl = '\n'
		case Hidden(r):
			keep = false
		case joiner(r):
			next, n := utf8.DecodeRuneInString(s[i+size:])
			keep = (joinable(prev) || prev == 0xFE0F) && n > 0 && joinable(next)
		case presentation(r):
			keep = !(prev == ' ' || prev == '\t' || prev == '\n' || presentation(prev) || joiner(prev))
		}
		if keep && repl < 0 {
			prev = r
			i += size
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(s))
		}
		out = append(out, s[start:i]...)
		if repl >= 0 {
			out = utf8.AppendRune(out, repl)
			prev = repl
		}
		i += size
		start = i
	}
	if out == nil {
		return s
	}
	return string(append(out, s[start:]...))
}
