package npm

import (
	"regexp"
	"sort"
	"strings"
)

// maxOverloadLines bounds the lines of one symbol's overload signatures.
const maxOverloadLines = 40

// literalParamRE matches a parameter or property typed by a literal: an
// event name (event: "message"), a token (secondsToken: 'EX'), a flag
// (complete: true, showInHelp: false), null (ws's address: null); not a
// literal inside another type
// (callback?: Callback<"OK">).
var literalParamRE = regexp.MustCompile(`[\w$]\??\s*:\s*(?:["']|(?:true|false|null)\b)`)

// specialised counts the literal-typed parameters of an overload: the
// forms for one event, token or flag value, which TypeScript requires
// before the general form and a reader needs after it.
func specialised(sig string) int {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return 0
	}
	depth := 0
	for i := open; i < len(sig); i++ {
		switch sig[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return len(literalParamRE.FindAllStringIndex(sig[open+1:i], -1))
			}
		}
	}
	return len(literalParamRE.FindAllStringIndex(sig[open+1:], -1))
}

// commonFirst orders overloads for a reader: the general forms first, in
// declaration order, then those specialised by literal types, the fewest
// literals first; at most
// maxOverloadLines lines in all, so a long list never hides the common form.
func commonFirst(sigs []string) string {
	type scored struct {
		sig   string
		score int
	}
	byScore := make([]scored, len(sigs))
	for i, sig := range sigs {
		byScore[i] = scored{sig, specialised(sig)}
	}
	sort.SliceStable(byScore, func(i, j int) bool { return byScore[i].score < byScore[j].score })
	ordered := make([]string, len(sigs))
	for i, sc := range byScore {
		ordered[i] = sc.sig
	}
	var b strings.Builder
	lines := 0
	for i, s := range ordered {
		n := strings.Count(s, "\n") + 1
		if i > 0 && lines+n > maxOverloadLines+1 {
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		lines += n
	}
	return b.String()
}

// constructorsCommonFirst orders a class's constructors as commonFirst
// orders overloads.
func constructorsCommonFirst(ctors []member) []member {
	scores := make(map[string]int, len(ctors))
	for _, c := range ctors {
		scores[c.sig] = specialised(c.sig)
	}
	out := append([]member(nil), ctors...)
	sort.SliceStable(out, func(i, j int) bool { return scores[out[i].sig] < scores[out[j].sig] })
	return out
}
