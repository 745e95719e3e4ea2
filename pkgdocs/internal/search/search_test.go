package search

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

func stringsLike() *model.Package {
	return &model.Package{
		Symbols: []model.Symbol{
			{Name: "Clone", Kind: "func", Signature: "func Clone(s string) string", Doc: "Clone returns a fresh copy of s. It is useful to cut memory retention."},
			{Name: "CutPrefix", Kind: "func", Signature: "func CutPrefix(s, prefix string) (after string, found bool)", Doc: "CutPrefix returns s without the provided leading prefix string."},
			{Name: "CutSuffix", Kind: "func", Signature: "func CutSuffix(s, suffix string) (before string, found bool)", Doc: "CutSuffix returns s without the provided ending suffix string."},
			{Name: "Cut", Kind: "func", Signature: "func Cut(s, sep string) (before, after string, found bool)", Doc: "Cut slices s around the first instance of sep."},
			{Name: "Replacer", Kind: "type", Signature: "type Replacer struct{ ... }", Doc: "Replacer replaces a list of strings with replacements."},
			{Name: "Replacer.Replace", Kind: "method", Signature: "func (r *Replacer) Replace(s string) string", Doc: "Replace returns a copy of s with all replacements performed."},
			{Name: "NewReplacer", Kind: "func", Signature: "func NewReplacer(oldnew ...string) *Replacer", Doc: "NewReplacer returns a new Replacer from a list of old, new string pairs."},
		},
		Sections: []model.Section{
			{Path: []string{"Cutting strings"}, Markdown: "## Cutting strings\n\nUse Cut, Cut, Cut to cut cut cut strings.\n", File: "README.md"},
			{Path: []string{"Routing"}, Markdown: "## Routing\n\nThe router dispatches requests.\n\n```js\napp.get('/', handler) // router\n```\n", File: "README.md"},
		},
		Examples: []model.Example{{Name: "ExampleCut", Code: `fmt.Println(strings.Cut("a=b", "="))`, Lang: "go"}},
	}
}

func titles(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Unit.Kind+":"+h.Unit.Title)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	ix := Build(stringsLike())
	tests := []struct {
		query     string
		fuzzy     bool
		wantFirst string
	}{
		{"Cut", true, "symbol:Cut"},                  // exact before partial, before prose that repeats "cut"
		{"cut", false, "symbol:Cut"},                 // case-insensitive exact
		{"CutPrefix", true, "symbol:CutPrefix"},      // compound identifiers
		{"cut prefix", false, "symbol:CutPrefix"},    // words of an identifier
		{"Replace", true, "symbol:Replacer.Replace"}, // member names count as exact
		{"router", false, "section:README.md › Routing"},
		{"dispatchs", true, "section:README.md › Routing"}, // misspelt (Damerau-Levenshtein 1)
		{"dispatchs", false, ""},
		{"NwRplcr", true, "symbol:NewReplacer"}, // fzf-style subsequence
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, Options{Fuzzy: tt.fuzzy, Limit: 5})
		if tt.wantFirst == "" {
			if len(hits) != 0 {
				t.Errorf("Search(%q) without fuzzy = %v, want nothing", tt.query, titles(hits))
			}
			continue
		}
		if len(hits) == 0 || titles(hits)[0] != tt.wantFirst {
			t.Errorf("Search(%q) = %v, want %s first", tt.query, titles(hits), tt.wantFirst)
		}
	}
}

func TestSearchKindFilterAndLimit(t *testing.T) {
	ix := Build(stringsLike())
	hits := ix.Search("cut", Options{Kind: KindExample, Limit: 5})
	if got := titles(hits); !reflect.DeepEqual(got, []string{"example:ExampleCut"}) {
		t.Fatalf("kind filter: %v", got)
	}
	if hits := ix.Search("cut", Options{Limit: 2}); len(hits) != 2 {
		t.Fatalf("limit: got %d hits", len(hits))
	}
	if hits := ix.Search("zzzz", Options{Fuzzy: true}); len(hits) != 0 {
		t.Fatalf("nonsense query matched %v", titles(hits))
	}
}

func TestTokenize(t *testing.T) {
	tests := map[string][]string{
		"ReadAll":               {"read", "all", "readall"},
		"HTTPServerError":       {"http", "server", "error", "httpservererror"},
		"snake_case::path":      {"snake", "case", "path"},
		"how to use the router": {"use", "router"},
	}
	for in, want := range tests {
		if got := Tokenize(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestDistanceAndSuggest(t *testing.T) {
	if d := Distance("expresss", "express"); d != 1 {
		t.Errorf("Distance = %d", d)
	}
	if d := Distance("ab", "ba"); d != 1 {
		t.Errorf("transposition distance = %d, want 1", d)
	}
	got := Suggest([]string{"express", "expect", "react", "Express"}, "expresss", 2)
	if !reflect.DeepEqual(got, []string{"express", "Express"}) {
		t.Errorf("Suggest = %v", got)
	}
}

func TestSnippetReopensFences(t *testing.T) {
	text := "intro\n\n```js\n" + strings.Repeat("line\n", 20) + "router()\n" + strings.Repeat("line\n", 20) + "```\nend"
	got := Snippet(text, []string{"router"}, 3)
	if !strings.HasPrefix(got, "…\n```js\n") || !strings.Contains(got, "router()") || !strings.HasSuffix(got, "```\n…\n") {
		t.Fatalf("snippet:\n%s", got)
	}
}

// TestSnippetPrefersCode: among lines matching as well, the one in a code
// block is the centre of the snippet.
func TestSnippetPrefersCode(t *testing.T) {
	var b strings.Builder
	b.WriteString("## Interceptors\n\nYou can intercept requests.\n")
	for i := 0; i < 20; i++ {
		b.WriteString("filler line\n")
	}
	b.WriteString("```js\naxios.interceptors.request.use(fn)\n```\n")
	got := Snippet(b.String(), []string{"interceptors"}, 2)
	if !strings.Contains(got, "axios.interceptors.request.use(fn)") || strings.Contains(got, "## Interceptors") {
		t.Fatalf("snippet:\n%s", got)
	}
}

// A README section that matches every word of the question beats symbols
// that match only one of them by name, and a declaration keyword ("type")
// in a signature is not a match for the word "type".
func TestSectionMatchingTheQuestionBeatsNameOnlySymbols(t *testing.T) {
	p := &model.Package{
		Symbols: []model.Symbol{
			{Name: "Infer", Kind: "type", Signature: "type Infer<T> = output<T>", Doc: "@deprecated Use output instead."},
			{Name: "infer", Kind: "type", Signature: "type output<T> = T extends { _zod: { output: any } } ? T[\"_zod\"][\"output\"] : unknown"},
			{Name: "inferFlattenedErrors", Kind: "type", Signature: "type inferFlattenedErrors<T, U = string> = FlattenedError<output<T>, U>"},
		},
		Sections: []model.Section{
			{Path: []string{"Basic usage"}, Markdown: "## Basic usage\n\nCreate a schema and parse data with it.\n", File: "README.md"},
			{Path: []string{"Inferring types"}, Markdown: "## Inferring types\n\nZod infers a static type from your schema. Extract the type with `z.infer<>`.\n\n```ts\ntype Player = z.infer<typeof Player>;\n```\n", File: "README.md"},
		},
	}
	hits := Build(p).Search("infer type", Options{Fuzzy: true, Limit: 5})
	if got := titles(hits); len(got) == 0 || got[0] != "section:README.md › Inferring types" {
		t.Fatalf("Search(infer type) = %v, want the section first", got)
	}
	// One word: the symbol named by it still comes first.
	if got := titles(Build(p).Search("infer", Options{Fuzzy: true})); got[0] != "symbol:infer" {
		t.Fatalf("Search(infer) = %v, want symbol:infer first", got)
	}
}

// Symbols whose documentation opens with the same sentence are one result
// listing the others, so look-alikes do not fill the page; a symbol whose
// first sentence holds the query's words ranks above one that mentions
// them later.
func TestSearchGroupsLookAlikesAndWeighsLeads(t *testing.T) {
	p := &model.Package{Symbols: []model.Symbol{
		{Name: "json", Kind: "const", Doc: "This is a built-in middleware function in Express. It parses JSON."},
		{Name: "raw", Kind: "const", Doc: "This is a built-in middleware function in Express. It parses buffers."},
		{Name: "text", Kind: "const", Doc: "This is a built-in middleware function in Express. It parses text."},
		{Name: "route", Kind: "method", Doc: "Returns a new Route for the path. Routes are isolated middleware stacks for specific paths."},
		{Name: "Application.use", Kind: "property", Doc: "Proxy Router#use() to add middleware to the app router. See Router#use() documentation for details, with its options, its errors and what it returns.", Aliases: []string{"app.use"}},
	}}
	ix := Build(p)
	hits := ix.Search("middleware", Options{Limit: 3})
	if got := titles(hits); !reflect.DeepEqual(got, []string{"symbol:json", "symbol:Application.use", "symbol:route"}) {
		t.Fatalf("Search = %v", got)
	}
	if !reflect.DeepEqual(hits[0].Similar, []string{"raw", "text"}) {
		t.Errorf("Similar = %v, want [raw text]", hits[0].Similar)
	}
	if hits := ix.Search("app.use", Options{Limit: 1}); len(hits) != 1 || !hits[0].Exact || hits[0].Unit.Name != "Application.use" {
		t.Errorf("an alias is not an exact match: %+v", hits)
	}
	for _, tt := range []struct{ doc, want string }{
		{"Set the status. Then more.", ""}, // too short to tell symbols apart
		{"Proxy `Router#use()` to add middleware.\nSee more.", "Proxy `Router#use()` to add middleware."},
		{"Creates a debounced function that delays\ninvoking func.\n\n@param x", "Creates a debounced function that delays invoking func."},
	} {
		if got := Lead(tt.doc); got != tt.want {
			t.Errorf("Lead(%q) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}
