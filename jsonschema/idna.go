package jsonschema

import (
	"slices"
	"unicode"
)

// IDNA2008 (RFC 5891-5893) checks of U-labels, using the standard library's
// Unicode tables. The code point classes of RFC 5892 are approximated by
// general category (letters, marks and decimal digits are PVALID, except
// upper and title case), with the exceptions table, the contextual rules
// and the Bidi rule implemented as specified; Bidi classes are derived from
// scripts. NFC is not checked.

// validULabel checks a U-label.
func validULabel(u []rune) bool {
	n := len(u)
	if n == 0 || u[0] == '-' || u[n-1] == '-' || (n >= 4 && u[2] == '-' && u[3] == '-') {
		return false
	}
	if unicode.Is(unicode.M, u[0]) {
		return false
	}
	for i, r := range u {
		if !idnaCodePointOK(u, i, r) {
			return false
		}
	}
	return true
}

// idnaCodePointOK checks code point r at position i of label u.
func idnaCodePointOK(u []rune, i int, r rune) bool {
	switch r {
	case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: // PVALID exceptions
		return true
	case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B: // DISALLOWED
		return false
	case 0x00B7: // MIDDLE DOT: between two 'l'
		return i > 0 && i < len(u)-1 && u[i-1] == 'l' && u[i+1] == 'l'
	case 0x0375: // GREEK LOWER NUMERAL SIGN: followed by Greek
		return i < len(u)-1 && unicode.Is(unicode.Greek, u[i+1])
	case 0x05F3, 0x05F4: // HEBREW GERESH, GERSHAYIM: preceded by Hebrew
		return i > 0 && unicode.Is(unicode.Hebrew, u[i-1])
	case 0x30FB: // KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han
		for _, c := range u {
			if c != 0x30FB && (unicode.Is(unicode.Hiragana, c) || unicode.Is(unicode.Katakana, c) || unicode.Is(unicode.Han, c)) {
				return true
			}
		}
		return false
	case 0x200D: // ZERO WIDTH JOINER: after a virama
		return i > 0 && isVirama(u[i-1])
	case 0x200C: // ZERO WIDTH NON-JOINER: after a virama, or between joining letters
		return (i > 0 && isVirama(u[i-1])) || zwnjJoins(u, i)
	}
	if r >= 0x0660 && r <= 0x0669 { // ARABIC-INDIC DIGITS: not mixed with extended ones
		return !slices.ContainsFunc(u, func(c rune) bool { return c >= 0x06F0 && c <= 0x06F9 })
	}
	if r >= 0x06F0 && r <= 0x06F9 {
		return !slices.ContainsFunc(u, func(c rune) bool { return c >= 0x0660 && c <= 0x0669 })
	}
	if r < 0x80 {
		return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-'
	}
	if (r >= 0x1100 && r <= 0x11FF) || (r >= 0xA960 && r <= 0xA97F) || (r >= 0xD7B0 && r <= 0xD7FF) {
		return false // old Hangul jamo
	}
	return unicode.In(r, unicode.Ll, unicode.Lo, unicode.Lm, unicode.Mn, unicode.Mc, unicode.Nd)
}

// viramas are the code points with canonical combining class 9 (Virama),
// from the Unicode Character Database.
var viramas = []rune{
	0x94d, 0x9cd, 0xa4d, 0xacd, 0xb4d, 0xbcd, 0xc4d, 0xccd, 0xd3b, 0xd3c, 0xd4d, 0xdca, 0xe3a,
	0xeba, 0xf84, 0x1039, 0x103a, 0x1714, 0x1715, 0x1734, 0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab,
	0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa82c, 0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f,
	0x11046, 0x11070, 0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235, 0x112ea, 0x1134d,
	0x11442, 0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b, 0x11839, 0x1193d, 0x1193e, 0x119e0,
	0x11a34, 0x11a47, 0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97,
}

func isVirama(r rune) bool {
	_, found := slices.BinarySearch(viramas, r)
	return found
}

// zwnjJoins approximates the ZWNJ rule of RFC 5892 (Appendix A.1): a joining
// letter, transparent marks, ZWNJ, transparent marks, a joining letter.
// Joining letters are approximated as letters of the cursive scripts.
func zwnjJoins(u []rune, i int) bool {
	left := i - 1
	for left >= 0 && isTransparent(u[left]) {
		left--
	}
	right := i + 1
	for right < len(u) && isTransparent(u[right]) {
		right++
	}
	return left >= 0 && right < len(u) && isJoining(u[left]) && isJoining(u[right])
}

func isTransparent(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) }

func isJoining(r rune) bool {
	return unicode.IsLetter(r) && unicode.In(r, unicode.Arabic, unicode.Syriac, unicode.Nko,
		unicode.Mongolian, unicode.Manichaean, unicode.Psalter_Pahlavi, unicode.Mandaic, unicode.Adlam)
}

// bidiClass is a simplified Unicode Bidi_Class.
type bidiClass uint8

const (
	bidiL bidiClass = iota
	bidiR
	bidiAL
	bidiEN
	bidiAN
	bidiNSM
	bidiOther // ES, CS, ET, ON, BN
)

func bidiOf(r rune) bidiClass {
	switch {
	case r >= '0' && r <= '9', r >= 0x06F0 && r <= 0x06F9:
		return bidiEN
	case r >= 0x0660 && r <= 0x0669, r == 0x066B, r == 0x066C, r >= 0x0600 && r <= 0x0605, r == 0x06DD, r == 0x08E2:
		return bidiAN
	case unicode.In(r, unicode.Mn, unicode.Me):
		return bidiNSM
	case unicode.In(r, unicode.Arabic, unicode.Syriac, unicode.Thaana):
		return bidiAL
	case unicode.In(r, unicode.Hebrew, unicode.Nko, unicode.Samaritan, unicode.Mandaic, unicode.Adlam,
		unicode.Cypriot, unicode.Kharoshthi, unicode.Phoenician, unicode.Old_South_Arabian):
		return bidiR
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.Is(unicode.Mc, r):
		return bidiL
	}
	return bidiOther
}

// bidiOK applies the Bidi rule (RFC 5893 section 2) to the labels of a
// domain name if it is a Bidi domain name (has an R, AL or AN character).
func bidiOK(labels [][]rune) bool {
	bidiDomain := false
	for _, l := range labels {
		for _, r := range l {
			if c := bidiOf(r); c == bidiR || c == bidiAL || c == bidiAN {
				bidiDomain = true
			}
		}
	}
	if !bidiDomain {
		return true
	}
	for _, l := range labels {
		if !bidiLabelOK(l) {
			return false
		}
	}
	return true
}

func bidiLabelOK(l []rune) bool {
	if len(l) == 0 {
		return false
	}
	first := bidiOf(l[0])
	if first != bidiL && first != bidiR && first != bidiAL {
		return false // rule 1
	}
	last := len(l) - 1
	for last > 0 && bidiOf(l[last]) == bidiNSM {
		last--
	}
	end := bidiOf(l[last])
	if first == bidiL {
		for _, r := range l {
			if c := bidiOf(r); c == bidiR || c == bidiAL || c == bidiAN {
				return false // rule 5
			}
		}
		return end == bidiL || end == bidiEN // rule 6
	}
	hasEN, hasAN := false, false
	for _, r := range l {
		switch bidiOf(r) {
		case bidiL:
			return false // rule 2
		case bidiEN:
			hasEN = true
		case bidiAN:
			hasAN = true
		}
	}
	return !(hasEN && hasAN) && (end == bidiR || end == bidiAL || end == bidiEN || end == bidiAN) // rules 3, 4
}
