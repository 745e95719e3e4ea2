package search

import (
	"math"
	"math/bits"
	"regexp"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Unit kinds.
const (
	KindSymbol  = "symbol"
	KindSection = "section"
	KindExample = "example"
)

// maxSimilar bounds the look-alike symbols listed with one hit.
const maxSimilar = 8

// Field boosts for BM25F.
const (
	boostName      = 4
	boostHeading   = 2
	boostSignature = 1.5
	boostBody      = 1
	k1             = 1.2
	b              = 0.75
)

// Unit is one searchable piece of a package.
type Unit struct {
	Kind      string
	Title     string // heading path, symbol name or example name
	Name      string // symbol name (symbols only)
	SymKind   string // func, type, class, ... (symbols only)
	Signature string
	Body      string   // section markdown, doc comment or example code
	Doc       string   // an example's prose (examples only)
	Lang      string   // code fence language for examples
	Package   string   // name@version of the package declaring a symbol, when another one
	Aliases   []string // other names of a symbol ("app.use" for "express.Application.use")
}

type doc struct {
	tf     map[string]float64 // weighted term frequency
	length float64
}

// Index is a search index over one package version. It is immutable once
// built and safe for concurrent use.
type Index struct {
	units  []Unit
	docs   []doc
	names  [][]rune // symbol names as runes, for fuzzy matching without conversion
	intern []bool   // symbol names that look internal or generated
	leads  []string // symbols' first doc sentences, lower-cased, for grouping look-alikes
	df     map[string]int
	avgLen float64
}

// Build indexes the sections, symbols and examples of p.
func Build(p *model.Package) *Index {
	ix := &Index{df: map[string]int{}}
	for _, s := range p.Symbols {
		ix.add(Unit{Kind: KindSymbol, Title: s.Name, Name: s.Name, SymKind: s.Kind, Signature: s.Signature, Body: s.Doc, Package: s.Package, Aliases: s.Aliases})
	}
	for _, s := range p.Sections {
		title := s.Title()
		if s.File != "" {
			title = s.File + " › " + title
		}
		ix.add(Unit{Kind: KindSection, Title: title, Body: s.Markdown})
	}
	for _, e := range p.Examples {
		ix.add(Unit{Kind: KindExample, Title: e.Name, Doc: e.Doc, Body: e.Code, Lang: e.Lang})
	}
	total := 0.0
	for _, d := range ix.docs {
		total += d.length
	}
	if len(ix.docs) > 0 {
		ix.avgLen = total / float64(len(ix.docs))
	}
	return ix
}

func (ix *Index) add(u Unit) {
	d := doc{tf: map[string]float64{}}
	counted := true
	field := func(text string, boost float64) {
		for _, t := range Tokenize(text) {
			d.tf[t] += boost
			if counted {
				d.length += boost
			}
		}
	}
	field(u.Name, boostName)
	counted = false // other names of the same symbol make it no longer
	for _, a := range u.Aliases {
		field(a, boostName)
	}
	counted = true
	if u.Kind != KindSymbol {
		field(u.Title, boostHeading)
	}
	field(declarationKeywords.ReplaceAllString(u.Signature, ""), boostSignature)
	field(u.Doc, boostBody)
	field(u.Body, boostBody)
	lead := ""
	if u.Kind == KindSymbol {
		// A doc comment's first sentence says what the symbol is for: its
		// words count twice.
		lead = Lead(u.Body)
		field(lead, boostBody)
	}
	for t := range d.tf {
		ix.df[t]++
	}
	ix.units = append(ix.units, u)
	ix.docs = append(ix.docs, d)
	ix.leads = append(ix.leads, strings.ToLower(lead))
	ix.names = append(ix.names, []rune(u.Name))
	intern := u.Kind == KindSymbol && internal(u.Name)
	for _, a := range u.Aliases {
		intern = intern && internal(a) // the name the package's source uses decides
	}
	ix.intern = append(ix.intern, intern)
}

// Len reports the number of indexed units.
func (ix *Index) Len() int { return len(ix.units) }

// Options controls Search.
type Options struct {
	Limit int    // default 5
	Kind  string // "", "any", or one of the unit kinds
	Fuzzy bool   // also match misspelt terms and symbol-name subsequences
}

// Hit is one ranked result.
type Hit struct {
	Unit  Unit
	Score float64
	Exact bool // the query names this symbol exactly
	Terms []string
	// Similar names lower-ranked symbols whose documentation opens with the
	// same sentence (express.json, express.raw, … "This is a built-in
	// middleware function"): listed with this hit rather than filling the
	// results.
	Similar []string
}

// Search ranks the index against query. Exact symbol-name matches always
// come first (case-sensitive before case-insensitive).
func (ix *Index) Search(query string, opts Options) []Hit {
	limit := opts.Limit
	if limit <= 0 {
		limit = 5
	}
	terms := map[string]float64{} // term -> weight
	asked := map[string]uint64{}  // term -> bit of the query word it stands for
	for _, t := range Tokenize(query) {
		if _, ok := asked[t]; !ok && len(asked) < 64 {
			terms[t] = 1
			asked[t] = 1 << len(asked)
		}
	}
	nasked := len(asked)
	if opts.Fuzzy {
		ix.addNearTerms(terms, asked)
	}
	q := strings.TrimSpace(query)
	fq := []rune(strings.ToLower(strings.ReplaceAll(q, " ", "")))
	n := float64(len(ix.docs))
	type cand struct {
		i     int
		score float64
		exact bool
	}
	var cands []cand
	sc := scorer{ix: ix, terms: terms, asked: asked, nasked: nasked, q: q, fq: fq, n: n, fuzzy: opts.Fuzzy}
	for i := range ix.docs {
		if opts.Kind != "" && opts.Kind != "any" && opts.Kind != ix.units[i].Kind {
			continue
		}
		if score, exact := sc.score(i); score > 0 {
			cands = append(cands, cand{i, score, exact})
		}
	}
	sort.Slice(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].i < cands[b].i // index order among equals
	})
	hits := make([]Hit, 0, min(len(cands), limit))
	group := map[string]int{} // lead sentence -> hit
	for _, c := range cands {
		if len(hits) == limit {
			break
		}
		if lead := ix.leads[c.i]; lead != "" && !c.exact {
			if h, ok := group[lead]; ok {
				if len(hits[h].Similar) < maxSimilar {
					hits[h].Similar = append(hits[h].Similar, ix.units[c.i].Name)
				}
				continue
			}
			group[lead] = len(hits)
		}
		var matched []string
		for t := range terms {
			if ix.docs[c.i].tf[t] > 0 {
				matched = append(matched, t)
			}
		}
		sort.Strings(matched)
		hits = append(hits, Hit{Unit: ix.units[c.i], Score: c.score, Exact: c.exact, Terms: matched})
	}
	return hits
}

// addNearTerms adds, for each long query word the index does not hold,
// the indexed words one edit away, at half weight, standing for the same
// query word.
func (ix *Index) addNearTerms(terms map[string]float64, asked map[string]uint64) {
	for t := range asked {
		if len(t) < 5 || ix.df[t] > 0 {
			continue
		}
		for v := range ix.df {
			if abs(len(v)-len(t)) <= 1 && Distance(t, v) == 1 {
				terms[v] = max(terms[v], 0.5)
				if _, ok := asked[v]; !ok {
					asked[v] = asked[t]
				}
			}
		}
	}
}

// A scorer scores the units of an index against one query.
type scorer struct {
	ix     *Index
	terms  map[string]float64 // term -> weight
	asked  map[string]uint64  // term -> bit of the query word it stands for
	nasked int
	q      string // the query, trimmed
	fq     []rune // the query lower-cased without spaces, for fuzzy names
	n      float64
	fuzzy  bool
}

// score returns unit i's BM25 score, weighted by how many query words it
// covers and raised for a symbol the query names, and whether it names it
// exactly.
func (sc *scorer) score(i int) (float64, bool) {
	d, u := &sc.ix.docs[i], &sc.ix.units[i]
	score := 0.0
	var covered uint64 // query words matched, one bit each
	for t, w := range sc.terms {
		tf := d.tf[t]
		if tf == 0 {
			continue
		}
		df := float64(sc.ix.df[t])
		idf := math.Log(1 + (sc.n-df+0.5)/(df+0.5))
		norm := 1 - b + b*d.length/max(sc.ix.avgLen, 1)
		score += w * idf * tf * (k1 + 1) / (tf + k1*norm)
		covered |= sc.asked[t]
	}
	if sc.nasked > 1 {
		// A unit that matches every word of the question beats one
		// that matches some of them, however strongly.
		c := float64(bits.OnesCount64(covered)) / float64(sc.nasked)
		score *= c * c
	}
	exact := false
	if u.Kind == KindSymbol {
		switch {
		case u.Name == sc.q || aliased(u, sc.q):
			score += 2000
			exact = true
		case strings.EqualFold(u.Name, sc.q) || strings.EqualFold(lastComponent(u.Name), sc.q):
			score += 1000
			exact = true
		case sc.fuzzy:
			score += 5 * subsequenceRunes(sc.fq, sc.ix.names[i])
		}
	}
	if !exact && sc.ix.intern[i] {
		score *= 0.3 // internal and generated names after the public API and the prose
	}
	return score, exact
}

// declarationKeywords matches the keywords that open a declaration ("type",
// "export declare function", "pub fn", "func"): they
// say what kind of symbol it is, which the question is not about, so they
// are not indexed as words of the signature.
var declarationKeywords = regexp.MustCompile(`^(?:(?:export|declare|default|abstract|pub(?:\([a-z]+\))?|async|unsafe|const|static|public|open|final)\s+)*(?:type|interface|class|function|func|fn|def|struct|enum|trait|namespace|module|var|let|const|protocol|extension)\b`)

// internal reports a symbol name that looks internal or generated:
// "$brand", "_private", "core.$InferX", "a.b.c", "default.x".
func internal(name string) bool {
	last := lastComponent(name)
	return strings.HasPrefix(last, "$") || strings.HasPrefix(last, "_") || strings.HasPrefix(name, "default.") ||
		strings.Count(name, ".") >= 2 || strings.Contains(strings.ToLower(name), "internal")
}

func lastComponent(name string) string {
	if i := strings.LastIndexAny(name, ".:#"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// aliased reports whether q is one of u's other names, ignoring case.
func aliased(u *Unit, q string) bool {
	for _, a := range u.Aliases {
		if strings.EqualFold(a, q) {
			return true
		}
	}
	return false
}

// Lead returns the first sentence of a doc comment (at most 300 bytes),
// or "" when it is too short to tell symbols apart (under four words).
func Lead(doc string) string {
	doc = strings.TrimSpace(doc)
	end := len(doc)
	for _, sep := range []string{". ", ".\n", "\n\n"} {
		if i := strings.Index(doc, sep); i >= 0 && i < end {
			end = i + 1
		}
	}
	lead := strings.Join(strings.Fields(doc[:min(end, len(doc), 300)]), " ")
	if strings.Count(lead, " ") < 3 {
		return ""
	}
	return lead
}
