package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// indexChunk is the number of lines of one API index block; a long list
// is several blocks, which Pack keeps in order.
const indexChunk = 40

// maxMemberLines is the number of members listed one per line under their
// owner; an owner with more lists their names on one line.
const maxMemberLines = 8

// maxMain is the number of symbols the "Main API" list at the head of the
// index holds: those the documentation uses.
const maxMain = 12

// mentioned returns the identifiers the documentation's prose and code
// use: the API a README shows is the API that matters.
func mentioned(secs []model.Section) map[string]bool {
	out := map[string]bool{}
	for _, s := range secs {
		for _, w := range strings.FieldsFunc(s.Markdown, func(r rune) bool {
			return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			out[w] = true
		}
	}
	return out
}

// importance scores a symbol for ordering within its kind: used in the
// documentation, documented, and public-looking names first; internal,
// generated and deeply qualified names last.
func importance(s model.Symbol, used map[string]bool) int {
	short := s.Name[strings.LastIndexAny(s.Name, ".:#")+1:]
	score := 0
	if used[short] {
		score += 4
	}
	if s.Doc != "" {
		score += 2
	}
	if strings.HasPrefix(short, "_") || strings.HasPrefix(short, "$") || strings.Contains(strings.ToLower(s.Name), "internal") ||
		strings.HasPrefix(short, "unstable_") || strings.Contains(s.Doc, "@internal") || strings.Contains(s.Doc, "@deprecated") {
		score -= 6
	}
	score -= strings.Count(s.Name, ".") // namespace members after the module's own exports
	return score
}

// indexUnit is an owner's line and its members' lines: never split, so no
// page starts with members whose owner is elsewhere.
type indexUnit []string

// apiIndex lists symbols one line each, grouped by kind, most important
// first, each member (method, property, ...) under its owner, in chunks
// that Pack keeps in order.
func apiIndex(syms []model.Symbol, used map[string]bool) []Block {
	known := map[string]bool{}
	for _, s := range syms {
		if !memberKinds[s.Kind] && !s.Hidden {
			known[s.Name] = true
		}
	}
	members := map[string][]model.Symbol{}
	groups := map[string][]model.Symbol{}
	var kinds []string
	for _, s := range syms {
		if s.Hidden {
			continue
		}
		if o := ownerOf(s, known); o != "" {
			members[o] = append(members[o], s)
			continue
		}
		k := s.Kind
		if k == "" {
			k = "symbol"
		}
		if _, ok := groups[k]; !ok {
			kinds = append(kinds, k)
		}
		groups[k] = append(groups[k], s)
	}
	sort.SliceStable(kinds, func(i, j int) bool { return rank(kinds[i]) < rank(kinds[j]) })
	var out []Block
	// The API the documentation uses comes first, whatever its kind, when
	// the API is too large to read whole.
	if used != nil && len(syms) > maxMain {
		var main []indexUnit
		for _, k := range kinds {
			var rest []model.Symbol
			for _, s := range groups[k] {
				if len(main) < maxMain && importance(s, used) >= 4 && used[s.Name[strings.LastIndexAny(s.Name, ".:#")+1:]] {
					main = append(main, unitOf(s, members[s.Name]))
				} else {
					rest = append(rest, s)
				}
			}
			groups[k] = rest
		}
		if len(main) > 0 {
			out = append(out, chunkUnits("Main API", main)...)
		}
	}
	for _, k := range kinds {
		g := groups[k]
		if len(g) == 0 {
			continue
		}
		scores := make(map[string]int, len(g))
		for _, s := range g {
			scores[s.Name] = importance(s, used)
		}
		sort.SliceStable(g, func(i, j int) bool { return scores[g[i].Name] > scores[g[j].Name] })
		var units []indexUnit
		for _, s := range g {
			units = append(units, unitOf(s, members[s.Name]))
		}
		title := kindTitle(k)
		if k == "type" {
			title = "Types and methods"
		}
		out = append(out, chunkUnits(title, units)...)
	}
	return out
}

// unitOf renders an owner and its members.
func unitOf(s model.Symbol, mems []model.Symbol) indexUnit {
	u := indexUnit{indexLine(s, false)}
	if len(mems) <= maxMemberLines {
		for _, m := range mems {
			u = append(u, indexLine(m, true))
		}
		return u
	}
	names := make([]string, 0, len(mems))
	seen := map[string]bool{}
	for _, m := range mems {
		short := m.Name[strings.LastIndexAny(m.Name, ".:#")+1:]
		if !seen[short] {
			seen[short] = true
			names = append(names, "`"+short+"`")
		}
	}
	return append(u, fmt.Sprintf("  - %d members: %s\n", len(names), strings.Join(names, ", ")))
}

// chunkUnits cuts a kind's list into blocks of about indexChunk lines,
// only between units; all chunks of a list share a group, so they stay in
// order across pages.
func chunkUnits(title string, units []indexUnit) []Block {
	var chunks [][]string
	var cur []string
	for _, u := range units {
		if len(cur) > 0 && len(cur)+len(u) > indexChunk {
			chunks = append(chunks, cur)
			cur = nil
		}
		cur = append(cur, u...)
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	var out []Block
	at := 0
	for i, c := range chunks {
		name := "API › " + title
		if len(chunks) > 1 {
			name = fmt.Sprintf("API › %s (%d–%d of %d)", title, at+1, at+len(c), total)
		}
		at += len(c)
		out = append(out, Block{Title: name, Text: "## " + strings.TrimPrefix(name, "API › ") + "\n\n" + strings.Join(c, ""), Group: "api " + title, Seq: i})
	}
	return out
}
