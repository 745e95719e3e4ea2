package untrusted

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Package returns a copy of p with every string cleaned for what it holds:
// prose with Text (README sections, docs, synopsis, deprecation message,
// notes, which quote package text), signatures with Signature, code with
// Code (examples, the install line) and names with Line (names, versions, paths, titles,
// provenance). p itself is not changed: a reader may share it. A nil p is
// returned as it is.
//
// Python docstrings and reStructuredText descriptions also lose their reST
// comments (RestComments).
//
// Every package an answer is rendered from goes through it once, when it
// is loaded, so no reader has to remember to.
func Package(p *model.Package) *model.Package {
	if p == nil {
		return nil
	}
	c := *p
	for _, f := range []*string{&c.Name, &c.Version, &c.Ecosystem, &c.Registry, &c.Origin, &c.SourceURL, &c.ResolvedFrom} {
		*f = Line(*f)
	}
	c.Deprecated = Text(c.Deprecated)
	c.Synopsis = Text(c.Synopsis)
	c.Install = Code(c.Install)
	c.Notes = mapStrings(c.Notes, Text)
	doc := Text
	if p.Ecosystem == model.Python {
		doc = func(s string) string { return RestComments(Text(s)) } // docstrings are reST
	}
	if c.Sections != nil {
		c.Sections = make([]model.Section, len(p.Sections))
		for i, s := range p.Sections {
			s.Path = mapStrings(s.Path, Line)
			s.Markdown = Text(s.Markdown)
			if p.Ecosystem == model.Python && (strings.HasPrefix(s.Markdown, "```rst") || strings.HasSuffix(s.File, ".rst")) {
				s.Markdown = RestComments(s.Markdown) // a reST long description or README.rst
			}
			s.File = Line(s.File)
			c.Sections[i] = s
		}
	}
	if c.Symbols != nil {
		c.Symbols = make([]model.Symbol, len(p.Symbols))
		for i, s := range p.Symbols {
			s.Name, s.Kind, s.File, s.Package = Line(s.Name), Line(s.Kind), Line(s.File), Line(s.Package)
			s.Signature = Signature(s.Signature)
			s.Doc = doc(s.Doc)
			s.Aliases = mapStrings(s.Aliases, Line)
			c.Symbols[i] = s
		}
	}
	if c.Examples != nil {
		c.Examples = make([]model.Example, len(p.Examples))
		for i, x := range p.Examples {
			x.Name, x.Lang = Line(x.Name), Line(x.Lang)
			x.Doc = Text(x.Doc)
			x.Code, x.Output = Code(x.Code), Code(x.Output)
			c.Examples[i] = x
		}
	}
	return &c
}

// mapStrings returns a new slice of f applied to each of ss (nil for nil).
func mapStrings(ss []string, f func(string) string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}
