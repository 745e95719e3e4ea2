package render

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

func randomBlocks(r *rand.Rand, n int) []Block {
	var out []Block
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "## Block %d\n\n", i)
		for range r.IntN(40) {
			switch r.IntN(3) {
			case 0:
				b.WriteString(strings.Repeat("word ", r.IntN(30)) + "\n\n")
			case 1:
				b.WriteString("```go\n")
				for range r.IntN(60) {
					b.WriteString("x := f(" + strings.Repeat("a", r.IntN(50)) + ")\n")
				}
				b.WriteString("```\n\n")
			case 2:
				b.WriteString("- item " + strings.Repeat("é", r.IntN(10)) + "\n")
			}
		}
		out = append(out, Block{Title: fmt.Sprintf("Block %d", i), Text: b.String()})
	}
	return out
}

// TestPackBudgetInvariant: every page fits the budget, never leaves a fence
// open, and pages 1..N together show every block exactly once.
func TestPackBudgetInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		blocks := randomBlocks(r, r.IntN(12))
		budget := ClampBudget(r.IntN(4000), 3000)
		first := Pack("# pkg@v1.0.0\n\n*go · proxy*", blocks, Options{MaxTokens: budget, PageHint: func(p int) string { return fmt.Sprintf("page=%d", p) }})
		seen := map[string]int{}
		for page := 1; page <= first.Pages; page++ {
			p := Pack("# pkg@v1.0.0\n\n*go · proxy*", blocks, Options{MaxTokens: budget, Page: page, PageHint: func(p int) string { return fmt.Sprintf("page=%d", p) }})
			if p.Tokens > budget {
				t.Fatalf("trial %d page %d: %d tokens over budget %d", trial, page, p.Tokens, budget)
			}
			if !FencesBalanced(p.Markdown) {
				t.Fatalf("trial %d page %d: unbalanced fence:\n%s", trial, page, p.Markdown)
			}
			if !strings.HasPrefix(p.Markdown, "# pkg@v1.0.0") {
				t.Fatalf("trial %d: header missing", trial)
			}
			if page < first.Pages && (p.NextPage != page+1 || !strings.Contains(p.Markdown, fmt.Sprintf("page=%d", page+1))) {
				t.Fatalf("trial %d page %d: no way to the next page", trial, page)
			}
			for _, b := range blocks {
				if strings.Contains(p.Markdown, strings.SplitN(b.Text, "\n", 2)[0]+"\n") {
					seen[b.Title]++
				}
			}
		}
		for _, b := range blocks {
			if seen[b.Title] != 1 {
				t.Fatalf("trial %d: %s shown %d times across pages", trial, b.Title, seen[b.Title])
			}
		}
	}
}

func TestPackSaysWhatWasLeftOut(t *testing.T) {
	blocks := []Block{
		{Title: "Overview", Text: "Short intro."},
		{Title: "§ Big", Text: strings.Repeat("long text ", 175)},
		{Title: "§ Medium", Text: strings.Repeat("medium ", 200)},
		{Title: "§ Small", Text: "small"},
	}
	p := Pack("# x@1", blocks, Options{MaxTokens: 1000, PageHint: func(n int) string { return fmt.Sprintf("call it with page=%d", n) }})
	if p.Pages != 2 || p.NextPage != 2 || !p.Truncated {
		t.Fatalf("pages=%d next=%d truncated=%v", p.Pages, p.NextPage, p.Truncated)
	}
	if !strings.Contains(p.Markdown, "§ Medium (401 tok, page 2)") || !strings.Contains(p.Markdown, "call it with page=2") {
		t.Fatalf("footer does not say what is left out:\n%s", p.Markdown)
	}
	if !strings.Contains(p.Markdown, "small") {
		t.Fatal("a block that fits must be packed on page 1 even after a block that does not")
	}
}

func TestClipNeverCutsAFence(t *testing.T) {
	code := "Intro\n\n```js\n" + strings.Repeat("console.log(1)\n", 200) + "```\n\nAfter."
	got, clipped := Clip(code, 100)
	if !clipped || Tokens(got) > 100 || !FencesBalanced(got) {
		t.Fatalf("clipped=%v tokens=%d balanced=%v:\n%s", clipped, Tokens(got), FencesBalanced(got), got)
	}
	if !strings.Contains(got, "more lines)*") {
		t.Fatalf("clip does not say how much was left out:\n%s", got)
	}
	if same, c := Clip("short", 100); c || same != "short" {
		t.Fatal("short text must be returned unchanged")
	}
}

func TestFencesBalanced(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"no fences", true},
		{"```\ncode\n```", true},
		{"```go\ncode", false},
		{"````\n```\nstill open\n````", true},
		{"~~~\n```\n~~~", true},
		{"```\n```js\n", false}, // an info string never closes
	}
	for _, tt := range tests {
		if got := FencesBalanced(tt.in); got != tt.want {
			t.Errorf("FencesBalanced(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestSymbolBlocksAndFind(t *testing.T) {
	p := &model.Package{Ecosystem: model.Go, Symbols: []model.Symbol{
		{Name: "Reader", Kind: "type", Signature: "type Reader struct{}", Doc: "Reader reads."},
		{Name: "Reader.Read", Kind: "method", Signature: "func (r *Reader) Read(p []byte) (int, error)", Doc: "Read reads."},
		{Name: "Cut", Kind: "func", Signature: "func Cut(s, sep string) (before, after string, found bool)"},
	}, Examples: []model.Example{{Name: "ExampleCut", Code: "fmt.Println(Cut(\"a=b\", \"=\"))", Output: "a b true", Lang: "go"}, {Name: "ExampleCutPrefix", Code: "x", Lang: "go"}}}
	blocks := SymbolBlocks(p, "Cut")
	if len(blocks) != 2 || !strings.Contains(blocks[1].Text, "ExampleCut") {
		t.Fatalf("Cut blocks = %+v", blocks)
	}
	if got := FindSymbols(p.Symbols, "read"); len(got) != 1 || got[0].Name != "Reader.Read" {
		t.Fatalf("member lookup = %+v", got)
	}
	if got := SymbolBlocks(p, "Reader"); len(got) != 1 || !strings.Contains(got[0].Text, "### Methods") {
		t.Fatalf("type blocks = %+v", got)
	}
	rs := &model.Package{Ecosystem: model.Rust, Symbols: []model.Symbol{
		{Name: "Store::get", Kind: "method", Signature: "pub fn get(&self) -> u8"},
		{Name: "Store", Kind: "struct", Signature: "pub struct Store;"},
		{Name: "Store::len", Kind: "property", Signature: "len: usize"},
		{Name: "open", Kind: "function", Signature: "pub fn open()"},
	}}
	if got := SymbolBlocks(rs, "Store"); len(got) != 1 || !strings.Contains(got[0].Text, "### Members\n\n  - `pub fn get(&self) -> u8`\n  - `len: usize`") {
		t.Fatalf("Rust members = %+v", got)
	}
	idx := apiIndex(rs.Symbols, nil)
	if len(idx) != 2 || idx[0].Title != "API › Functions" || !strings.Contains(idx[1].Text, "- `pub struct Store;`\n  - `pub fn get(&self) -> u8`\n") {
		t.Fatalf("members must follow their owner whatever the source order: %+v", idx)
	}
	if SymbolBlocks(p, "Nope") != nil {
		t.Fatal("unknown symbol matched")
	}
}
