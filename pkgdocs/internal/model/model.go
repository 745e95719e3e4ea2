// Package model defines the ecosystem-neutral description of one package
// version that every source produces and every renderer consumes.
package model

// Ecosystem names, as used in tool arguments and provenance headers.
const (
	Go     = "go"
	NPM    = "npm"
	Python = "python"
	Rust   = "rust"
	Swift  = "swift"
)

// Priority orders content when packing a budgeted answer: lower comes first.
type Priority int

// Packing priorities, from the first thing a reader needs to the last.
const (
	PriorityOverview Priority = 1 // package synopsis, preamble
	PriorityUsage    Priority = 2 // install, quick start, usage
	PriorityAPI      Priority = 3 // API reference, options, configuration
	PriorityExamples Priority = 4 // examples
	PriorityRest     Priority = 5 // anything else worth keeping
)

// Package is what a source knows about one version of one package.
type Package struct {
	Name         string // canonical package name (import path, npm name, crate, ...)
	Version      string // exact version described
	Ecosystem    string // one of the ecosystem constants
	Registry     string // host (or "local") the artefacts came from
	Origin       string // what was read, e.g. "module zip", "tarball README+d.ts"
	SourceURL    string // URL (or file path) of the main artefact
	ResolvedFrom string // explicit, lockfile, go.mod, latest, list, dist-tag, semver, local
	Deprecated   string // why this version is deprecated (npm deprecated, Go "Deprecated:", yanked); "" if it is not
	Synopsis     string // one-line summary
	Install      string // how to add it, as a markdown code fence or short text
	Sections     []Section
	Symbols      []Symbol
	Examples     []Example
	Stale        bool     // served from cache after an upstream failure
	Partial      bool     // an optional upstream failed transiently; kept only briefly in caches
	Notes        []string // short remarks for the reader (e.g. "no README in tarball")
}

// Section is one piece of prose documentation, kept as its original
// markdown bytes.
type Section struct {
	Path     []string // heading path, outermost first; empty for a preamble
	Markdown string   // original markdown, heading line included
	Priority Priority
	File     string // file the section came from, e.g. README.md
}

// Title returns the section's heading path joined for display.
func (s Section) Title() string {
	if len(s.Path) == 0 {
		return "(introduction)"
	}
	out := s.Path[0]
	for _, p := range s.Path[1:] {
		out += " › " + p
	}
	return out
}

// Symbol is one exported API element.
type Symbol struct {
	Name      string // qualified display name, e.g. "Cut" or "Reader.Read"
	Kind      string // func, method, type, const, var, class, interface, ...
	Signature string // one declaration, without body
	Doc       string // documentation comment as markdown
	File      string // source file, relative to the root of the package that declares it
	Package   string // name@version of the package that declares it, when not the package described
	Hidden    bool   // found by name and by search, not listed in the API index (interface members)
	// Aliases are other names the symbol is found by: the name its
	// JavaScript source gives it ("app.use" for "express.Application.use").
	Aliases []string
	// DefinedIn says where the symbol is defined when users reach it by
	// another path: the module of a re-exported Python name ("requests.api"
	// for requests.get), or the class an inherited member comes from.
	DefinedIn string
	// Inherited marks a member a class gets from a base class (DefinedIn).
	Inherited bool
}

// Example is one runnable or illustrative piece of code.
type Example struct {
	Name   string // e.g. "ExampleCut" or "examples/basic.js"
	Doc    string
	Code   string
	Output string // expected output, if the ecosystem records one
	Lang   string // code fence language
}
