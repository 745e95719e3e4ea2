package npm

import (
	"regexp"
	"sort"
	"strings"
)

// maxOverloadLines bounds the lines of one symbol's overload signatures.
const maxOverloadLines = 40

// literalParamRE matches a parameter list specialised by a literal type:
// an event name ("message"), a flag (complete: true, showInHelp: false).
var literalParamRE = regexp.MustCompile(`["']|[:|&(,]\s*(?:true|false)\b`)

// specialised reports whether an overload's parameters use literal
// types: the forms for one event or one flag value, which TypeScript
// requires before the general form and a reader needs after it.
func specialised(sig string) bool {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return false
	}
	depth := 0
	for i := open; i < len(sig); i++ {
		switch sig[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return literalParamRE.MatchString(sig[open+1 : i])
			}
		}
	}
	return literalParamRE.MatchString(sig[open+1:])
}

// commonFirst orders overloads for a reader: the general forms first, in
// declaration order, then those specialised by literal types; at most
// maxOverloadLines lines in all, so a long list never hides the common form.
func commonFirst(sigs []string) string {
	ordered := append([]string(nil), sigs...)
	sort.SliceStable(ordered, func(i, j int) bool { return !specialised(ordered[i]) && specialised(ordered[j]) })
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
	out := append([]member(nil), ctors...)
	sort.SliceStable(out, func(i, j int) bool { return !specialised(out[i].sig) && specialised(out[j].sig) })
	return out
}
