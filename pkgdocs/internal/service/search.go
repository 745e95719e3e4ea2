package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/search"
)

// SearchPackageDocs ranks a package's sections, symbols and examples
// against a query.
func (s *Service) SearchPackageDocs(ctx context.Context, args SearchArgs) (*SearchResult, error) {
	if err := required("query", args.Query); err != nil {
		return nil, err
	}
	var r *pkgRequest
	var err error
	switch strings.ToLower(args.Language) {
	case model.Go:
		r, err = s.goRequest(args.Package, args.Version, args.ProjectPath, "", "")
	case model.NPM, "node", "javascript", "typescript":
		r, err = s.npmRequest(args.Package, args.Version, args.ProjectPath)
	case model.Python:
		r, err = s.pythonRequest(args.Package, args.Version, args.ProjectPath)
	case model.Rust:
		r, err = s.rustRequest(args.Package, args.Version, args.ProjectPath)
	case model.Swift:
		r, err = s.swiftRequest(args.Package, args.Version, args.ProjectPath)
	default:
		return nil, fmt.Errorf("%w: language must be go, npm, python, rust or swift, not %q", ErrInvalidArgument, args.Language)
	}
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "search_package_docs", args, func(e *entry) (*SearchResult, error) {
		return searchPackage(e, args)
	})
}

// searchPackage answers search_package_docs from a loaded package, once
// per set of arguments.
func searchPackage(e *entry, args SearchArgs) (*SearchResult, error) {
	switch args.Kind {
	case "", "any", search.KindSymbol, search.KindSection, search.KindExample:
	default:
		return nil, fmt.Errorf("%w: kind must be any, symbol, section or example, not %q", ErrInvalidArgument, args.Kind)
	}
	fuzzy := args.Fuzzy == nil || *args.Fuzzy
	limit := min(max(args.Limit, 0), 50)
	if limit == 0 {
		limit = 5
	}
	key := fmt.Sprintf("%s\x00%s\x00%v\x00%d\x00%d", args.Query, args.Kind, fuzzy, limit, args.MaxTokens)
	return e.memoSearch(key, func() *SearchResult { return searchEntry(e, args, fuzzy, limit) }), nil
}

// searchEntry ranks and renders a search of a loaded package.
func searchEntry(e *entry, args SearchArgs, fuzzy bool, limit int) *SearchResult {
	p := e.pkg
	hits := e.index().Search(args.Query, search.Options{Limit: limit, Kind: args.Kind, Fuzzy: fuzzy})
	res := &SearchResult{Provenance: provenance(p), Query: args.Query, Hits: []SearchHit{}}
	for _, h := range hits {
		res.Hits = append(res.Hits, SearchHit{Kind: h.Unit.Kind, Title: h.Unit.Title, Score: round(h.Score), Package: h.Unit.Package})
	}
	blocks := hitBlocks(p, hits)
	if len(blocks) == 0 {
		blocks = []render.Block{{Title: "No results", Text: fmt.Sprintf("Nothing in %s@%s matches %q. Try other words, fuzzy=true, or describe the package to see its API.", p.Name, p.Version, args.Query)}}
	}
	budget := render.ClampBudget(args.MaxTokens, DefaultSearchTokens)
	pg := render.Pack(render.Header(p)+fmt.Sprintf("\nSearch: %q — %d results\n", args.Query, len(hits)), blocks, render.Options{
		MaxTokens: budget,
		PageHint: func(int) string {
			return "raise maxTokens or lower limit to see more results"
		},
	})
	res.Markdown, res.Tokens = pg.Markdown, pg.Tokens
	return res
}

func round(f float64) float64 {
	return float64(int(f*100+0.5)) / 100
}

// hitBlocks renders search hits: symbols with their signature and first
// paragraph, sections and examples as snippets around the best line.
func hitBlocks(p *model.Package, hits []search.Hit) []render.Block {
	var out []render.Block
	for i, h := range hits {
		u := h.Unit
		var b strings.Builder
		fmt.Fprintf(&b, "### %d. %s: %s\n\n", i+1, u.Kind, u.Title)
		switch u.Kind {
		case search.KindSymbol:
			b.WriteString(render.Fence(u.Signature, fenceLang(p.Ecosystem)))
			if doc := firstParagraph(u.Body); doc != "" {
				b.WriteString("\n" + render.Quote(doc))
			}
			if u.Package != "" {
				fmt.Fprintf(&b, "\n*Declared in %s.*\n", u.Package)
			}
			if len(h.Similar) > 0 {
				fmt.Fprintf(&b, "\nDocumented alike: `%s`.\n", strings.Join(h.Similar, "`, `"))
			}
		case search.KindExample:
			if doc := firstParagraph(u.Doc); doc != "" {
				b.WriteString(render.Quote(doc) + "\n")
			}
			b.WriteString(render.Fence(strings.TrimSpace(u.Body), u.Lang))
		default:
			b.WriteString(render.Quote(search.Snippet(u.Body, h.Terms, 6)))
		}
		out = append(out, render.Block{Title: fmt.Sprintf("%d. %s", i+1, u.Title), Text: b.String()})
	}
	return out
}

func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	if !render.FencesBalanced(s) {
		return ""
	}
	return s
}

func fenceLang(eco string) string {
	switch eco {
	case model.Go:
		return "go"
	case model.NPM:
		return "ts"
	case model.Python:
		return "python"
	case model.Rust:
		return "rust"
	case model.Swift:
		return "swift"
	}
	return ""
}
