package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// TestListsBeginAtTheirHead: a list cut into chunks never shows a later
// chunk on an earlier page than the chunk before it, even when the later
// chunk would fit in the room left.
func TestListsBeginAtTheirHead(t *testing.T) {
	var syms []model.Symbol
	for i := range 45 {
		syms = append(syms, model.Symbol{Name: fmt.Sprintf("F%02d", i), Kind: "function", Signature: fmt.Sprintf("function F%02d(a: string, b: number, c: boolean): void", i), Doc: "Does a thing with a fairly long description."})
	}
	blocks := append([]Block{{Title: "intro", Text: strings.Repeat("word ", 700)}}, apiIndex(syms, nil)...)
	for _, budget := range []int{900, 1200, 1500, 3000} {
		pagesOf := map[string]int{}
		for page := 1; page <= 10; page++ {
			pg := Pack("# x@1\n", blocks, Options{MaxTokens: budget, Page: page})
			for _, b := range blocks {
				if strings.Contains(pg.Markdown, strings.SplitN(b.Text, "\n", 2)[0]+"\n") {
					if _, ok := pagesOf[b.Title]; !ok {
						pagesOf[b.Title] = page
					}
				}
			}
			if pg.NextPage == 0 {
				break
			}
		}
		head, tail := pagesOf["API › Functions (1–40 of 45)"], pagesOf["API › Functions (41–45 of 45)"]
		if head == 0 || tail == 0 || tail < head {
			t.Errorf("budget %d: head on page %d, tail on page %d", budget, head, tail)
		}
	}
}

// TestNoOrphanMembers: members stay with their owner, and an owner with
// many members lists their names on one line.
func TestNoOrphanMembers(t *testing.T) {
	var syms []model.Symbol
	for i := range 30 {
		owner := fmt.Sprintf("C%02d", i)
		syms = append(syms, model.Symbol{Name: owner, Kind: "class", Signature: "class " + owner})
		for j := range 3 {
			syms = append(syms, model.Symbol{Name: fmt.Sprintf("%s.m%d", owner, j), Kind: "method", Signature: fmt.Sprintf("m%d(): void", j)})
		}
	}
	syms = append(syms, model.Symbol{Name: "Big", Kind: "class", Signature: "class Big"})
	for j := range 20 {
		syms = append(syms, model.Symbol{Name: fmt.Sprintf("Big.m%d", j), Kind: "method", Signature: fmt.Sprintf("m%d(): void", j)})
	}
	for _, b := range apiIndex(syms, nil) {
		body := strings.SplitN(b.Text, "\n\n", 2)[1]
		if strings.HasPrefix(body, "  ") {
			t.Errorf("%s starts with a member line:\n%s", b.Title, body)
		}
	}
	all := ""
	for _, b := range apiIndex(syms, nil) {
		all += b.Text
	}
	if !strings.Contains(all, "- `class Big`\n  - 20 members: `m0`, `m1`") {
		t.Errorf("many members not folded:\n%s", all)
	}
}

// TestImportantAPIFirst: documented symbols the README uses come before
// internal and undocumented ones.
func TestImportantAPIFirst(t *testing.T) {
	syms := []model.Symbol{
		{Name: "core.$brand", Kind: "const", Signature: "const $brand: unique symbol"},
		{Name: "core.NEVER", Kind: "const", Signature: "const NEVER: never"},
		{Name: "_internalHelper", Kind: "const", Signature: "const _internalHelper: 1", Doc: "Internal."},
		{Name: "object", Kind: "const", Signature: "const object: Factory", Doc: "Makes an object schema."},
		{Name: "string", Kind: "const", Signature: "const string: Factory"},
	}
	used := mentioned([]model.Section{{Markdown: "```ts\nconst User = z.object({ name: z.string() })\n```"}})
	idx := apiIndex(syms, used)
	var order []string
	for _, l := range strings.Split(idx[0].Text, "\n") {
		if strings.HasPrefix(l, "- ") {
			order = append(order, l)
		}
	}
	got := strings.Join(order, "\n")
	if !strings.HasPrefix(got, "- **object**") && !strings.HasPrefix(got, "- `const object") || !strings.Contains(order[1], "string") || !strings.Contains(order[len(order)-1], "_internalHelper") && !strings.Contains(order[len(order)-1], "$brand") {
		t.Fatalf("order:\n%s", got)
	}
}

// TestDeprecationFirst: a deprecated or yanked version says so on the
// answer's first line.
func TestDeprecationFirst(t *testing.T) {
	p := &model.Package{Name: "request", Version: "2.88.2", Ecosystem: model.NPM, Deprecated: "request has been deprecated,\n see issue 3142"}
	h := Header(p)
	if !strings.HasPrefix(h, "**Deprecated:**\n\n> request has been deprecated, see issue 3142\n\n# request@2.88.2\n") {
		t.Fatalf("header %q", h)
	}
	if strings.HasPrefix(Header(&model.Package{Name: "x", Version: "1"}), "**") {
		t.Fatal("deprecation line on a live package")
	}
}
