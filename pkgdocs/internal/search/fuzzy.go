package search

import (
	"sort"
	"strings"
	"unicode"
)

// subsequenceRunes rates how well the lower-cased query q matches the name
// n as an fzf-style subsequence, case-insensitively: 0 when it does not
// match, up to 1 for a match that is contiguous and starts at word
// boundaries. Higher is better.
func subsequenceRunes(q, n []rune) float64 {
	if len(q) == 0 || len(q) > len(n) {
		return 0
	}
	points, qi, prevMatch := 0.0, 0, -2
	for i := 0; i < len(n) && qi < len(q); i++ {
		if unicode.ToLower(n[i]) != q[qi] {
			continue
		}
		p := 1.0
		if i == prevMatch+1 {
			p += 1 // consecutive
		}
		if i == 0 || unicode.IsUpper(n[i]) || !unicode.IsLetter(n[i-1]) {
			p += 1 // word start
		}
		points += p
		prevMatch = i
		qi++
	}
	if qi < len(q) {
		return 0
	}
	best := 3.0 * float64(len(q))
	// Penalise long names that merely contain the letters.
	return points / best * float64(len(q)) / float64(len(n)+len(q)) * 2
}

// Distance is the optimal-string-alignment Damerau-Levenshtein distance
// between a and b (adjacent transpositions count as one edit).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Suggest returns up to n candidates closest to query, for did-you-mean
// messages: case-insensitive edit distance within a third of the query's
// length (at least 2), or a containment either way. Closest first.
func Suggest(candidates []string, query string, n int) []string {
	type scored struct {
		s string
		d int
	}
	lq := strings.ToLower(query)
	limit := max(2, len([]rune(query))/3)
	var out []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := Distance(lq, lc)
		if d > limit && !(len(lq) >= 3 && (strings.Contains(lc, lq) || strings.Contains(lq, lc) && len(lc) >= 3)) {
			continue
		}
		out = append(out, scored{c, d})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var names []string
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].s)
	}
	return names
}
