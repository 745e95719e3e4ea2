package service

// Common budget defaults, in estimated tokens.
const (
	DefaultDescribeTokens = 3000
	DefaultDocTokens      = 6000
	DefaultSearchTokens   = 2500
)

// DescribeGoArgs are the arguments of describe_go_package.
type DescribeGoArgs struct {
	Package     string `json:"package" jsonschema:"Go import path, e.g. golang.org/x/mod/semver or strings"`
	Version     string `json:"version,omitempty" jsonschema:"module version, e.g. v0.42.0; default: the version in projectPath's go.mod, else the latest release"`
	Symbol      string `json:"symbol,omitempty" jsonschema:"document only this symbol, e.g. Compare or Reader.Read"`
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"directory of the project whose go.mod pins the version"`
	GOOS        string `json:"goos,omitempty" jsonschema:"GOOS for build constraints (default linux)"`
	GOARCH      string `json:"goarch,omitempty" jsonschema:"GOARCH for build constraints (default amd64)"`
	MaxTokens   int    `json:"maxTokens,omitempty" jsonschema:"token budget of the answer (default 3000, at most 8000 per page; page for more)"`
	Page        int    `json:"page,omitempty" jsonschema:"page of a long answer, from 1"`
}

// DescribeNPMArgs are the arguments of describe_npm_package.
type DescribeNPMArgs struct {
	Package     string   `json:"package" jsonschema:"npm package name, e.g. express or @types/node, or an import specifier with a subpath, e.g. react-dom/client, to document that module's declarations"`
	Version     string   `json:"version,omitempty" jsonschema:"exact version, dist-tag or range; default: the version in projectPath's lockfile, else the latest dist-tag"`
	Symbol      string   `json:"symbol,omitempty" jsonschema:"document only this exported symbol (from the .d.ts typings)"`
	ProjectPath string   `json:"projectPath,omitempty" jsonschema:"project directory: its .npmrc and lockfile are used"`
	Include     []string `json:"include,omitempty" jsonschema:"parts to include: readme, api, examples (default all)"`
	MaxTokens   int      `json:"maxTokens,omitempty" jsonschema:"token budget of the answer (default 3000, at most 8000 per page; page for more)"`
	Page        int      `json:"page,omitempty" jsonschema:"page of a long answer, from 1"`
}

// GetNPMDocArgs are the arguments of get_npm_package_doc.
type GetNPMDocArgs struct {
	Package     string `json:"package" jsonschema:"npm package name, or an import specifier with a subpath (react-dom/client)"`
	Version     string `json:"version,omitempty" jsonschema:"exact version, dist-tag or range"`
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"project directory: its .npmrc and lockfile are used"`
	Section     string `json:"section,omitempty" jsonschema:"only sections whose heading contains this text"`
	Query       string `json:"query,omitempty" jsonschema:"search the documentation for this text instead of returning it in order"`
	MaxLength   int    `json:"maxLength,omitempty" jsonschema:"legacy limit in characters; prefer maxTokens"`
	MaxTokens   int    `json:"maxTokens,omitempty" jsonschema:"token budget of the answer (default 6000, at most 8000 per page; page for more)"`
	Page        int    `json:"page,omitempty" jsonschema:"page of a long answer, from 1"`
}

// DescribeArgs are the arguments of describe_python_package,
// describe_rust_package and describe_swift_package.
type DescribeArgs struct {
	Package     string `json:"package" jsonschema:"package name (Python distribution, Rust crate, or Swift owner/repo or repository URL)"`
	Version     string `json:"version,omitempty" jsonschema:"exact version; default: the project's lock file, else the latest release"`
	Symbol      string `json:"symbol,omitempty" jsonschema:"document only this symbol"`
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"project directory whose lock file pins the version"`
	MaxTokens   int    `json:"maxTokens,omitempty" jsonschema:"token budget of the answer (default 3000, at most 8000 per page; page for more)"`
	Page        int    `json:"page,omitempty" jsonschema:"page of a long answer, from 1"`
}

// SearchArgs are the arguments of search_package_docs.
type SearchArgs struct {
	Package     string `json:"package" jsonschema:"package name or import path"`
	Query       string `json:"query" jsonschema:"what to look for: a symbol name or words"`
	Language    string `json:"language" jsonschema:"ecosystem: go, npm, python, rust or swift"`
	Version     string `json:"version,omitempty" jsonschema:"version to search (default as for describe)"`
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"project directory (lockfile, go.mod, .npmrc)"`
	Fuzzy       *bool  `json:"fuzzy,omitempty" jsonschema:"also match misspellings and abbreviations of symbol names (default true)"`
	Kind        string `json:"kind,omitempty" jsonschema:"any, symbol, section or example (default any)"`
	Limit       int    `json:"limit,omitempty" jsonschema:"number of results (default 5, at most 50)"`
	MaxTokens   int    `json:"maxTokens,omitempty" jsonschema:"token budget of the answer (default 2500, at most 8000 per page; page for more)"`
}

// Provenance says what an answer describes and where it came from.
type Provenance struct {
	Name         string `json:"name" jsonschema:"package name"`
	Version      string `json:"version" jsonschema:"exact version described"`
	Ecosystem    string `json:"ecosystem" jsonschema:"go, npm, python, rust or swift"`
	Registry     string `json:"registry" jsonschema:"host the artefacts came from"`
	Source       string `json:"source" jsonschema:"URL or path of the main artefact read"`
	Origin       string `json:"origin" jsonschema:"what was read and how"`
	ResolvedFrom string `json:"resolvedFrom" jsonschema:"how the version was chosen"`
	Stale        bool   `json:"stale,omitempty" jsonschema:"served from cache because the upstream failed"`
}

// DocResult is the answer of the describe tools and get_npm_package_doc.
type DocResult struct {
	Provenance
	Markdown    string   `json:"markdown" jsonschema:"the documentation, within the token budget"`
	Tokens      int      `json:"tokens" jsonschema:"estimated tokens of markdown"`
	TotalTokens int      `json:"totalTokens" jsonschema:"estimated tokens of everything available"`
	Page        int      `json:"page" jsonschema:"this page"`
	Pages       int      `json:"pages" jsonschema:"number of pages"`
	NextPage    int      `json:"nextPage,omitempty" jsonschema:"page to ask for next, if any"`
	Truncated   bool     `json:"truncated" jsonschema:"something was left out of this page"`
	Omitted     []string `json:"omittedSections,omitempty" jsonschema:"what is not on this page"`
}

// SearchHit is one search result.
type SearchHit struct {
	Kind  string  `json:"kind" jsonschema:"symbol, section or example"`
	Title string  `json:"title" jsonschema:"symbol name, heading path or example name"`
	Score float64 `json:"score" jsonschema:"relevance, higher is better"`
	// Package names the package a symbol is declared in, when it is not
	// the one searched (its types re-export or extend that package's).
	Package string `json:"package,omitempty" jsonschema:"name@version of the package declaring a symbol, when another one"`
}

// SearchResult is the answer of search_package_docs.
type SearchResult struct {
	Provenance
	Query    string      `json:"query" jsonschema:"the query"`
	Hits     []SearchHit `json:"hits" jsonschema:"results, best first"`
	Markdown string      `json:"markdown" jsonschema:"the results with snippets, within the token budget"`
	Tokens   int         `json:"tokens" jsonschema:"estimated tokens of markdown"`
}
