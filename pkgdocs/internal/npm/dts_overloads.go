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
		byScore[i] = scored{sig, formScore(sig)}
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
		scores[c.sig] = formScore(c.sig)
	}
	out := append([]member(nil), ctors...)
	sort.SliceStable(out, func(i, j int) bool { return scores[out[i].sig] < scores[out[j].sig] })
	return out
}

// formScore ranks an overload, lowest first: twice its literal-typed
// parameters, less one when its parameters may all be left out
// (fastify(opts?)), the form that serves the common call.
func formScore(sig string) int {
	score := 2 * specialised(sig)
	if allOptional(sig) {
		score--
	}
	return score
}

// allOptional reports a signature with parameters, every one of them
// optional ("opts?: T") or a rest parameter.
func allOptional(sig string) bool {
	params, ok := paramList(sig)
	if !ok || strings.TrimSpace(params) == "" {
		return false
	}
	depth, start := 0, 0
	var parts []string
	for i := 0; i < len(params); i++ {
		switch params[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if i == 0 || params[i-1] != '=' {
				depth--
			}
		case ',':
			if depth == 0 {
				parts = append(parts, params[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, params[start:])
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue // a trailing comma
		}
		name, _, _ := strings.Cut(p, ":")
		if !strings.HasSuffix(strings.TrimSpace(name), "?") && !strings.HasPrefix(p, "...") {
			return false
		}
	}
	return true
}

// paramList returns the text between a signature's parameter parentheses:
// the first "(" after its type parameters.
func paramList(sig string) (string, bool) {
	i := strings.IndexByte(sig, '(')
	if lt := strings.IndexByte(sig, '<'); lt >= 0 && lt < i {
		if end := matchAngle(sig[lt:]); end >= 0 {
			if j := strings.IndexByte(sig[lt+end:], '('); j >= 0 {
				i = lt + end + j
			}
		}
	}
	if i < 0 {
		return "", false
	}
	depth := 0
	for j := i; j < len(sig); j++ {
		switch sig[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return sig[i+1 : j], true
			}
		}
	}
	return "", false
}
