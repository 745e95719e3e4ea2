package render

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Include selects the parts of a package description.
type Include struct {
	Readme   bool
	API      bool
	Examples bool
}

// All includes everything.
var All = Include{Readme: true, API: true, Examples: true}

// Header is the provenance header every answer starts with:
// name@version, ecosystem, registry, what was read and how the version was
// chosen. A deprecated (or yanked) version says so first.
func Header(p *model.Package) string {
	var b strings.Builder
	if p.Deprecated != "" {
		// The first thing a reader must know. The notice is quoted: most
		// are the package's own words (its registry entry, its README).
		b.WriteString("**Deprecated:**\n\n")
		b.WriteString(Quote(strings.Join(strings.Fields(p.Deprecated), " ")) + "\n")
	}
	fmt.Fprintf(&b, "# %s@%s\n\n", p.Name, p.Version)
	parts := []string{p.Ecosystem}
	if p.Registry != "" {
		parts = append(parts, p.Registry)
	}
	// What was read names a package's files (a "types" path, say): a '*'
	// in one must not end the line's emphasis and add words of its own.
	if p.Origin != "" {
		parts = append(parts, emphasisEscaper.Replace(p.Origin))
	}
	if p.ResolvedFrom != "" {
		parts = append(parts, "version from "+emphasisEscaper.Replace(p.ResolvedFrom))
	}
	if p.Stale {
		parts = append(parts, "stale: upstream unreachable, served from cache")
	}
	fmt.Fprintf(&b, "*%s*\n", strings.Join(parts, " · "))
	return b.String()
}

// emphasisEscaper makes '*' literal inside pkgdocs' italic lines.
var emphasisEscaper = strings.NewReplacer("*", "\\*")

// Blocks lays out a package description in packing order: overview, usage
// sections, the API index, API sections, examples, the rest.
func Blocks(p *model.Package, inc Include) []Block {
	var out []Block
	if ov := overview(p); ov != "" {
		out = append(out, Block{Title: "Overview", Text: ov})
	}
	secs := append([]model.Section(nil), p.Sections...)
	sort.SliceStable(secs, func(i, j int) bool { return secs[i].Priority < secs[j].Priority })
	used := make([]bool, len(secs))
	sectionBlocks := func(pred func(model.Priority) bool, limit int) {
		if !inc.Readme {
			return
		}
		for i, s := range secs {
			if !used[i] && pred(s.Priority) && limit != 0 {
				out = append(out, SectionBlock(s))
				used[i] = true
				limit--
			}
		}
	}
	sectionBlocks(func(pr model.Priority) bool { return pr <= model.PriorityUsage }, -1)
	// The main usage example comes before the API.
	sectionBlocks(func(pr model.Priority) bool { return pr == model.PriorityExamples }, 1)
	if inc.API {
		out = append(out, apiIndex(p.Symbols, mentioned(p.Sections))...)
	}
	sectionBlocks(func(pr model.Priority) bool { return pr == model.PriorityAPI }, -1)
	sectionBlocks(func(pr model.Priority) bool { return pr == model.PriorityExamples }, -1)
	if inc.Examples {
		for _, ex := range p.Examples {
			out = append(out, Block{Title: "Example " + ex.Name, Text: exampleMarkdown(ex, "###")})
		}
	}
	sectionBlocks(func(pr model.Priority) bool { return pr >= model.PriorityRest }, -1)
	return out
}

func overview(p *model.Package) string {
	var b strings.Builder
	// The synopsis is usually the first sentence of the introduction.
	if p.Synopsis != "" && !(len(p.Sections) > 0 && strings.HasPrefix(p.Sections[0].Markdown, p.Synopsis)) {
		b.WriteString(Quote(p.Synopsis) + "\n")
	}
	if p.Install != "" {
		b.WriteString(p.Install + "\n\n")
	}
	for _, n := range p.Notes {
		// pkgdocs' own remark (which may cite package text on its line):
		// never quoted, so no package text can pass for one.
		b.WriteString("**Note:** " + strings.Join(strings.Fields(n), " ") + "\n\n")
	}
	return strings.TrimSpace(b.String())
}

// SectionBlock is the block of one README or documentation section: its
// markdown, quoted as package text.
func SectionBlock(s model.Section) Block {
	return Block{Title: "§ " + s.Title(), Text: Quote(s.Markdown)}
}

// kindOrder sorts kinds in the order a reader scans an API.
var kindOrder = map[string]int{
	"mod": 0, "module": 0, "const": 1, "var": 2, "static": 2, "func": 3, "function": 3,
	"type": 4, "class": 4, "struct": 4, "union": 4, "actor": 4, "interface": 5, "protocol": 5,
	"enum": 6, "trait": 6, "type alias": 7, "typealias": 7, "macro": 8, "namespace": 9, "use": 10,
}

// kindTitle pluralises a kind for a heading.
func kindTitle(k string) string {
	switch k {
	case "const":
		return "Constants"
	case "var":
		return "Variables"
	case "func", "function":
		return "Functions"
	case "class":
		return "Classes"
	case "method":
		return "Methods"
	case "mod":
		return "Modules"
	case "use":
		return "Re-exports"
	case "type alias", "typealias":
		return "Type aliases"
	case "property":
		return "Properties"
	case "static":
		return "Statics"
	case "associatedtype":
		return "Associated types"
	}
	return strings.ToUpper(k[:1]) + k[1:] + "s"
}

// memberKinds are the kinds of symbols that belong to a type (or trait,
// class, protocol) named by their name's prefix.
var memberKinds = map[string]bool{"method": true, "property": true, "init": true, "subscript": true, "case": true, "field": true, "associatedtype": true}

// ownerOf returns the name of the symbol that s is a member of ("Reader"
// for the method "Reader.Read", "Store" for "Store::get"), or "" when s is
// not a member or its owner is not among known.
func ownerOf(s model.Symbol, known map[string]bool) string {
	if !memberKinds[s.Kind] {
		return ""
	}
	i := max(strings.LastIndex(s.Name, "::"), strings.LastIndexByte(s.Name, '.'))
	if i <= 0 || !known[s.Name[:i]] {
		return ""
	}
	return s.Name[:i]
}

func rank(k string) int {
	if r, ok := kindOrder[k]; ok {
		return r
	}
	return 8
}

func indexLine(s model.Symbol, member bool) string {
	sig := OneLine(s.Signature)
	if sig == "" {
		sig = s.Name
	}
	indent := ""
	if member {
		indent = "  "
	}
	line := fmt.Sprintf("%s- `%s`", indent, strings.ReplaceAll(sig, "`", "'"))
	if short := s.Name[strings.LastIndexAny(s.Name, ".:#")+1:]; !strings.Contains(sig, short) || (!member && short != s.Name) {
		line = fmt.Sprintf("%s- **%s**: `%s`", indent, s.Name, strings.ReplaceAll(sig, "`", "'"))
	}
	if syn := FirstSentence(s.Doc); syn != "" {
		line += " — " + syn
	}
	return line + "\n"
}

// OneLine collapses a multi-line signature to its first line, closing an
// opened brace with an ellipsis.
func OneLine(sig string) string {
	sig = strings.TrimSpace(sig)
	for strings.HasPrefix(sig, "#[") && strings.Contains(sig, "\n") { // Rust attributes
		_, sig, _ = strings.Cut(sig, "\n")
		sig = strings.TrimSpace(sig)
	}
	first, rest, multi := strings.Cut(sig, "\n")
	if !multi {
		return first
	}
	_ = rest
	first = strings.TrimSpace(first)
	switch {
	case strings.HasSuffix(first, "{"):
		return first + " … }"
	case strings.HasSuffix(first, "("):
		return first + " … )"
	}
	return first + " …"
}

var mdLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// FirstSentence returns the first sentence of a doc comment, on one line,
// at most 160 bytes.
func FirstSentence(doc string) string {
	doc = mdLinkRE.ReplaceAllString(doc, "$1")
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i+1]
	}
	if len(doc) > 160 {
		cut := 157
		for cut > 0 && doc[cut]&0xC0 == 0x80 {
			cut--
		}
		doc = doc[:cut] + "…"
	}
	return doc
}

func exampleMarkdown(ex model.Example, level string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s Example: %s\n\n", level, ex.Name)
	if ex.Doc != "" {
		b.WriteString(Quote(ex.Doc) + "\n")
	}
	b.WriteString(Fence(ex.Code, ex.Lang))
	if ex.Output != "" {
		b.WriteString("\nOutput:\n\n" + Fence(ex.Output, "text"))
	}
	return b.String()
}

// Fence wraps code in a fence longer than any backtick run inside it.
func Fence(code, lang string) string {
	n := 3
	run := 0
	for _, c := range code {
		if c == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + strings.TrimRight(code, "\n") + "\n" + f + "\n"
}

// SymbolBlocks renders the full documentation of the symbols named name
// (exact match first, then case-insensitive, then as a member name such as
// "Read" for "Reader.Read"), with their methods and examples. It returns
// nil when nothing matches.
func SymbolBlocks(p *model.Package, name string) []Block {
	return symbolBlocks(p, FindSymbols(p.Symbols, name), func(owner string) []model.Symbol {
		var out []model.Symbol
		self := map[string]bool{owner: true}
		for _, m := range p.Symbols {
			if len(m.Name) > len(owner) && strings.HasPrefix(m.Name, owner) && ownerOf(m, self) == owner {
				out = append(out, m)
			}
		}
		return out
	})
}

// maxDetailedMembers is the number of members a symbol's answer lists one
// per line with their signatures; beyond it, members not in the API index
// (promoted methods, a go-redis client's hundreds of commands) are listed
// by name, so the type's own members stay on the page.
const maxDetailedMembers = 40

// symbolBlocks renders the symbols matches, each with the members
// membersOf returns for it and its examples.
func symbolBlocks(p *model.Package, matches []model.Symbol, membersOf func(owner string) []model.Symbol) []Block {
	if len(matches) == 0 {
		return nil
	}
	var out []Block
	matches = declarationsFirst(matches)
	listed := map[string]bool{} // owners whose members are shown already
	for _, s := range matches {
		var b strings.Builder
		fmt.Fprintf(&b, "## %s %s\n\n", s.Kind, s.Name)
		b.WriteString(Fence(s.Signature, langOf(p.Ecosystem)))
		if s.DefinedIn != "" {
			b.WriteString(definedLine(s)) // where a re-exported or inherited name comes from, before a long doc
		}
		if s.Doc != "" {
			b.WriteString("\n" + Quote(s.Doc))
		}
		if s.DefinedIn == "" {
			b.WriteString(definedLine(s))
		}
		var mems []model.Symbol // members are listed once for symbols sharing a name
		if !listed[s.Name] {
			listed[s.Name] = true
			for _, m := range membersOf(s.Name) {
				if !shownInSignature(s, m) {
					mems = append(mems, m)
				}
			}
		}
		b.WriteString(memberList(s.Name, mems))
		out = append(out, Block{Title: s.Kind + " " + s.Name, Text: b.String()})
		for _, ex := range p.Examples {
			if exampleFor(ex.Name, s.Name) {
				out = append(out, Block{Title: "Example " + ex.Name, Text: exampleMarkdown(ex, "###")})
			}
		}
	}
	return out
}

// definedLine says where a symbol is defined: its file, the package that
// declares it, the module a re-exported name comes from, or the base class
// an inherited member comes from.
func definedLine(s model.Symbol) string {
	s.File = emphasisEscaper.Replace(s.File) // a file name stays inside the italics
	s.DefinedIn = emphasisEscaper.Replace(s.DefinedIn)
	switch {
	case s.Inherited && s.DefinedIn != "" && s.Package != "":
		return fmt.Sprintf("\n*Inherited from %s (%s of %s).*\n", s.DefinedIn, s.File, s.Package)
	case s.Inherited && s.DefinedIn != "":
		return fmt.Sprintf("\n*Inherited from %s (%s).*\n", s.DefinedIn, s.File)
	case s.DefinedIn != "" && s.Package != "":
		return fmt.Sprintf("\n*Defined in %s (%s of %s).*\n", s.DefinedIn, s.File, s.Package)
	case s.DefinedIn != "" && s.File != "":
		return fmt.Sprintf("\n*Defined in %s (%s).*\n", s.DefinedIn, s.File)
	case s.Package != "" && s.File != "":
		return fmt.Sprintf("\n*Defined in %s of %s.*\n", s.File, s.Package)
	case s.Package != "":
		return fmt.Sprintf("\n*Defined in %s.*\n", s.Package)
	case s.File != "":
		return fmt.Sprintf("\n*Defined in %s.*\n", s.File)
	}
	return ""
}

// maxOwnMemberBytes is the most a type's own members may take listed one
// per line with their signatures; past it, their names are listed on one
// line (a class with many long signatures would fill the page).
const maxOwnMemberBytes = 8000

// memberList lists what a type inherits, one line of names per base it
// comes from, and its own members one per line (their names on one line
// when there are many), then, in a long list, the members not indexed on
// their own (promoted methods) by name.
func memberList(owner string, members []model.Symbol) string {
	var own, ownNames, byName, bases []string
	ownBytes := 0
	inherited := map[string][]string{}
	heading := "Methods"
	for _, m := range members {
		if m.Kind != "method" {
			heading = "Members"
		}
		name := "`" + m.Name[strings.LastIndexAny(m.Name, ".:#")+1:] + "`"
		switch {
		case m.Inherited:
			if _, ok := inherited[m.DefinedIn]; !ok {
				bases = append(bases, m.DefinedIn)
			}
			inherited[m.DefinedIn] = append(inherited[m.DefinedIn], name)
		case m.Hidden && len(members) > maxDetailedMembers:
			byName = append(byName, name)
		default:
			line := indexLine(m, true)
			own = append(own, line)
			ownBytes += len(line)
			ownNames = append(ownNames, name)
		}
	}
	if len(own) == 0 && len(byName) == 0 && len(bases) == 0 {
		return ""
	}
	var inheritedLines strings.Builder
	for _, base := range bases {
		fmt.Fprintf(&inheritedLines, "  - inherited from %s: %s\n", base, strings.Join(inherited[base], ", "))
	}
	var b strings.Builder
	b.WriteString("\n### " + heading + "\n\n")
	if ownBytes > maxOwnMemberBytes {
		fmt.Fprintf(&b, "  - %d members: %s\n", len(ownNames), strings.Join(ownNames, ", "))
		b.WriteString(inheritedLines.String())
	} else {
		// What it inherits is one short line per base: first, so that a
		// page clipped in a long list of own members still shows it.
		b.WriteString(inheritedLines.String())
		b.WriteString(strings.Join(own, ""))
	}
	if len(byName) > 0 {
		fmt.Fprintf(&b, "  - %d more, each found as %s.<name>:\n", len(byName), owner)
		for len(byName) > 0 { // short lines: a clipped answer keeps most
			n := min(len(byName), 16)
			b.WriteString("    " + strings.Join(byName[:n], ", ") + "\n")
			byName = byName[n:]
		}
	}
	return b.String()
}

// declarationsFirst orders symbols sharing a name so that the one a
// reader means comes first: a class or function before the interface or
// namespace merged with it (TypeScript declaration merging), which would
// otherwise push the class onto a later page.
func declarationsFirst(syms []model.Symbol) []model.Symbol {
	merged := func(k string) bool { return k == "namespace" || k == "interface" || k == "module" }
	if len(syms) < 2 {
		return syms
	}
	out := make([]model.Symbol, 0, len(syms))
	for _, pass := range []bool{false, true} {
		for _, s := range syms {
			if merged(s.Kind) == pass {
				out = append(out, s)
			}
		}
	}
	return out
}

// shownInSignature reports a member (a constructor) whose declaration the
// owner's signature block already shows.
func shownInSignature(owner, m model.Symbol) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(m.Signature), "\n")
	return strings.HasSuffix(m.Name, ".constructor") && first != "" && strings.Contains(owner.Signature, first)
}

// FindSymbols returns the symbols matching name: exact matches if any,
// else case-insensitive ones, else members whose last component matches,
// else symbols whose qualified name ends in name.
func FindSymbols(syms []model.Symbol, name string) []model.Symbol {
	name = strings.TrimSpace(name)
	var found [4][]model.Symbol // by test, best first; one pass over syms
	dotted := strings.Contains(name, ".") || strings.Contains(name, "::")
	for _, s := range syms {
		switch {
		case named(s, name, false):
			found[0] = append(found[0], s)
		case len(found[0]) > 0:
			// an exact match makes the weaker tests moot
		case named(s, name, true):
			found[1] = append(found[1], s)
		default:
			if i := strings.LastIndexAny(s.Name, ".:#"); i >= 0 && strings.EqualFold(s.Name[i+1:], name) {
				found[2] = append(found[2], s)
			} else if dotted && qualifiedSuffix(s.Name, name) {
				found[3] = append(found[3], s) // "Moment.format" for "moment.Moment.format", "TcpListener::bind" for "net::TcpListener::bind"
			}
		}
	}
	for i, f := range found {
		if len(f) > 0 && i >= 2 {
			return exactCaseFirst(f, name)
		}
		if len(f) > 0 {
			return f
		}
	}
	return nil
}

// qualifiedSuffix reports whether name ends a qualified name full after a
// '.' or '::' separator ("Moment.format" of "moment.Moment.format").
func qualifiedSuffix(full, name string) bool {
	n := len(full) - len(name)
	if n <= 0 || !strings.EqualFold(full[n:], name) {
		return false
	}
	return full[n-1] == '.' || n > 1 && full[n-2:n] == "::"
}

// exampleFor reports whether a Go-style example name (ExampleCut,
// ExampleReader_Read_suffix) or a file name belongs to symbol.
func exampleFor(example, symbol string) bool {
	want := "Example" + strings.ReplaceAll(symbol, ".", "_")
	if example == want || strings.HasPrefix(example, want+"_") {
		rest := strings.TrimPrefix(example, want+"_")
		// ExampleReader_Read is a method example, not a suffix of Reader.
		return example == want || (rest != "" && rest[0] >= 'a' && rest[0] <= 'z')
	}
	return false
}

func langOf(eco string) string {
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
