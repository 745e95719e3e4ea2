package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Block is an indivisible piece of an answer: it lands on one page whole,
// or, if it is larger than a page, clipped (see Clip).
type Block struct {
	Title string // how the omitted list names it, e.g. "## API › Options"
	Text  string // markdown
	// Group names a list cut into several blocks; Seq is this block's
	// place in it. Pack never puts a block of a group on an earlier page
	// than the block before it, so lists begin at their head.
	Group string
	Seq   int
}

// Options controls Pack.
type Options struct {
	MaxTokens int // already clamped (see ClampBudget)
	Page      int // 1-based; 0 means 1
	// PageHint says how to ask for another page, e.g.
	// "call describe_go_package with page=2"; nil means no hint.
	PageHint func(page int) string
}

// Page is one packed answer.
type Page struct {
	Markdown    string   // header, blocks, footer
	Tokens      int      // estimated tokens of Markdown
	TotalTokens int      // estimated tokens of all blocks on all pages
	Page        int      // this page, 1-based
	Pages       int      // number of pages
	NextPage    int      // next page number, 0 when this is the last
	Truncated   bool     // something was left out of this page or clipped
	Omitted     []string // titles of blocks not on this page, with sizes
}

const (
	maxOmittedListed = 8
	maxTitleRunes    = 48
	footerReserve    = 240 // tokens; the footer is bounded by the two limits above
)

// Pack lays blocks out on pages of opts.MaxTokens, in order, first fit:
// each page takes every remaining block that still fits, so the pagination
// is deterministic and the same for every call.
func Pack(header string, blocks []Block, opts Options) Page {
	page := max(opts.Page, 1)
	header = strings.TrimRight(header, "\n") + "\n\n"
	avail := opts.MaxTokens - Tokens(header) - footerReserve
	avail = max(avail, 50)

	type placed struct {
		Block
		tokens  int
		page    int
		clipped bool
	}
	items := make([]placed, 0, len(blocks))
	total := 0
	for _, b := range blocks {
		text := strings.TrimSpace(b.Text) + "\n\n"
		total += Tokens(text)
		clipped := false
		if Tokens(text) > avail {
			text, clipped = Clip(text, avail)
			text = strings.TrimRight(text, "\n") + "\n\n"
		}
		items = append(items, placed{Block: Block{Title: b.Title, Text: text, Group: b.Group, Seq: b.Seq}, tokens: Tokens(text), clipped: clipped})
	}
	pages := 0
	for remaining := len(items); remaining > 0; {
		pages++
		room := avail
		blocked := map[string]bool{} // groups whose next block is not placed yet
		for i := range items {
			it := &items[i]
			if it.page != 0 {
				continue
			}
			if it.Group != "" && blocked[it.Group] {
				continue
			}
			if it.tokens <= room {
				it.page = pages
				room -= it.tokens
				remaining--
			} else if it.Group != "" {
				blocked[it.Group] = true
			}
		}
	}
	pages = max(pages, 1)
	page = min(page, pages)

	var body strings.Builder
	body.WriteString(header)
	out := Page{Page: page, Pages: pages, TotalTokens: total}
	var omitted []placed
	for _, it := range items {
		if it.page == page {
			body.WriteString(it.Text)
			if it.clipped {
				out.Truncated = true
				out.Omitted = append(out.Omitted, fmt.Sprintf("%s (clipped)", shortTitle(it.Title)))
			}
		} else {
			omitted = append(omitted, it)
		}
	}
	if page < pages {
		out.NextPage = page + 1
	}
	if len(omitted) > 0 {
		out.Truncated = true
	}
	for _, it := range omitted {
		out.Omitted = append(out.Omitted, fmt.Sprintf("%s (%s tok, page %d)", shortTitle(it.Title), formatTokens(it.tokens), it.page))
	}
	body.WriteString(footer(out, opts.PageHint))
	out.Markdown = strings.TrimRight(body.String(), "\n") + "\n"
	out.Tokens = Tokens(out.Markdown)
	return out
}

func footer(p Page, hint func(int) string) string {
	if !p.Truncated && p.Pages == 1 {
		return ""
	}
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "*Page %d of %d.", p.Page, p.Pages)
	if len(p.Omitted) > 0 {
		b.WriteString(" Not shown here: ")
		n := min(len(p.Omitted), maxOmittedListed)
		b.WriteString(strings.Join(p.Omitted[:n], "; "))
		if len(p.Omitted) > n {
			fmt.Fprintf(&b, "; and %d more", len(p.Omitted)-n)
		}
		b.WriteString(".")
	}
	if hint != nil {
		if p.NextPage > 0 {
			b.WriteString(" Next: " + hint(p.NextPage) + ".")
		} else if p.Page > 1 {
			b.WriteString(" Earlier: " + hint(p.Page-1) + ".")
		}
	}
	b.WriteString("*\n")
	return b.String()
}

func shortTitle(t string) string {
	if utf8.RuneCountInString(t) <= maxTitleRunes {
		return t
	}
	r := []rune(t)
	return string(r[:maxTitleRunes-1]) + "…"
}
