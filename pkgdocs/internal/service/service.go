// Package service implements pkgdocs' seven tools as plain Go functions:
// each takes an argument struct, loads the package documentation through a
// cache, and renders budgeted markdown with provenance. The MCP layer and
// the command line are thin wrappers over it.
package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/cache"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/gosrc"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/progress"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/search"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
	"github.com/gomcp/sdk/pkgdocs/internal/untrusted"
)

// ErrInvalidArgument reports arguments that cannot name a package.
var ErrInvalidArgument = errors.New("invalid argument")

// Config configures a Service. Zero fields take defaults from the
// environment (GOPROXY, GOMODCACHE, GOPRIVATE, ...) or the public registries.
type Config struct {
	Client *fetch.Client // default fetch.New(nil)

	GOPROXY    string
	GOMODCACHE string
	GONOPROXY  string
	GOROOT     string

	NPM    NPMConfig
	Python PythonConfig
	Rust   RustConfig
	Swift  SwiftConfig

	MemoryBytes int64 // in-memory cache size; default 256 MiB
	// Offline answers only from local installations and caches: the module
	// cache, node_modules under projectPath, the disk cache.
	Offline bool
	// CacheDir holds an on-disk cache shared by processes: documentation of
	// exact versions, immutable artefacts for good, version lists and
	// dist-tags for 10 minutes, not-found answers for 2 minutes. "" disables
	// it. Setting it also gives Client this cache.
	CacheDir string
	// Shared, when set, is shared with the other instances of a team
	// server: the packages this one reads from registries, its not-found
	// answers and the answers it renders from shareable packages go
	// there; a question another instance answered is answered from there
	// without loading the package, and a package another instance read
	// without asking the registry; concurrent first requests for the same
	// key on several instances make one upstream fetch. nil shares
	// nothing. Requests naming a projectPath are never shared.
	Shared shared.Store
}

// Service answers the tools. It is safe for concurrent use.
type Service struct {
	cfg    Config
	client *fetch.Client
	mem    *cache.Loader
	disk   *cache.Disk
	gosrc  *gosrc.Source
	shared shared.Store // nil: nothing shared

	sharedPackages atomic.Int64 // packages decoded from the shared store
	sharedAnswers  atomic.Int64 // answers served from the shared store's rendered entries
}

// SharedStats counts what a Service took from its shared store
// (Config.Shared): for tests, metrics and the operator.
type SharedStats struct {
	// Packages is how many packages it decoded from the store, for
	// questions no rendered entry answered.
	Packages int64
	// Answers is how many answers it served from rendered entries, without
	// loading the package.
	Answers int64
}

// SharedStats returns the counts of what s took from its shared store.
func (s *Service) SharedStats() SharedStats {
	return SharedStats{Packages: s.sharedPackages.Load(), Answers: s.sharedAnswers.Load()}
}

// New returns a Service. A nil cfg means defaults.
func New(cfg *Config) (*Service, error) {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.Client == nil {
		c.Client = fetch.New(nil)
	}
	if c.GOPROXY == "" {
		c.GOPROXY = os.Getenv("GOPROXY")
	}
	if c.GOMODCACHE == "" {
		c.GOMODCACHE = defaultGOMODCACHE()
	}
	if c.GONOPROXY == "" {
		c.GONOPROXY = firstNonEmpty(os.Getenv("GONOPROXY"), os.Getenv("GOPRIVATE"))
	}
	if c.Python.SimpleIndexURL == "" {
		c.Python.SimpleIndexURL = simpleIndexFromEnv()
	}
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = 256 << 20
	}
	s := &Service{cfg: c, client: c.Client, mem: cache.NewLoader(c.MemoryBytes), shared: c.Shared}
	if c.Offline {
		c.Client.SetOffline(true)
	}
	if c.CacheDir != "" {
		d, err := cache.OpenDisk(c.CacheDir, 0)
		if err != nil {
			return nil, err
		}
		s.disk = d
		// Upstream answers are kept too: a later process answers from disk
		// until a mutable one (version list, dist-tag) expires.
		c.Client.SetCache(d)
	}
	s.gosrc = &gosrc.Source{
		Proxy:  gosrc.NewProxy(c.Client, gosrc.ProxyConfig{GOPROXY: c.GOPROXY, GOMODCACHE: c.GOMODCACHE, GONOPROXY: c.GONOPROXY, Offline: c.Offline}),
		GOROOT: c.GOROOT,
	}
	return s, nil
}

func defaultGOMODCACHE() string {
	if v := os.Getenv("GOMODCACHE"); v != "" {
		return v
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		return strings.Split(gp, string(os.PathListSeparator))[0] + "/pkg/mod"
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home + "/go/pkg/mod"
	}
	return ""
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// entry is what the cache holds: a package, its lazily built index, and
// the answers already rendered from it (a warm answer is a map lookup).
type entry struct {
	pkg  *model.Package
	once sync.Once
	ix   *search.Index

	symix *render.SymbolIndex // built when the package is loaded

	mu       sync.Mutex
	rendered map[string]*DocResult
	blocks   map[render.Include][]render.Block
	symbols  map[string][]render.Block // a symbol's blocks, whatever the budget or page
	searched map[string]*SearchResult  // search answers by arguments

	sharedKeys map[string]bool // answers kept in the shared store (shareOnce)
}

// memoSearch returns the search answer for key, computing it with fn once.
func (e *entry) memoSearch(key string, fn func() *SearchResult) *SearchResult {
	e.mu.Lock()
	if r, ok := e.searched[key]; ok {
		e.mu.Unlock()
		return r
	}
	e.mu.Unlock()
	r := fn()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.searched == nil || len(e.searched) >= maxRendered {
		e.searched = map[string]*SearchResult{}
	}
	e.searched[key] = r
	return r
}

// newEntry wraps a loaded package, indexing its symbols once so that
// symbol answers never scan them all. It is the one way a package enters
// the cache, from a reader or from disk, and so the one place its text is
// cleaned (untrusted.Package): no answer, search or error message shows
// text a package hid.
func newEntry(p *model.Package) *entry {
	p = untrusted.Package(p)
	return &entry{pkg: p, symix: render.NewSymbolIndex(p)}
}

// maxSymbolBlocks bounds the symbols whose blocks are kept per package.
const maxSymbolBlocks = 256

// symbolBlocks returns the blocks answering symbol, computed once per
// symbol; nil when the package has no such symbol.
func (e *entry) symbolBlocks(symbol string) []render.Block {
	e.mu.Lock()
	b, ok := e.symbols[symbol]
	e.mu.Unlock()
	if ok {
		return b
	}
	if e.symix != nil {
		b = e.symix.Blocks(symbol)
	} else {
		b = render.SymbolBlocks(e.pkg, symbol)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.symbols == nil || len(e.symbols) >= maxSymbolBlocks {
		e.symbols = map[string][]render.Block{}
	}
	e.symbols[symbol] = b
	return b
}

// blocksFor returns the package laid out for inc, computed once.
func (e *entry) blocksFor(inc render.Include) []render.Block {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.blocks[inc]; ok {
		return b
	}
	if e.blocks == nil {
		e.blocks = map[render.Include][]render.Block{}
	}
	b := render.Blocks(e.pkg, inc)
	e.blocks[inc] = b
	return b
}

// maxRendered bounds the answers kept per package.
const maxRendered = 64

// memo returns the answer rendered for key, rendering it with fn once.
// Errors are not kept.
func (e *entry) memo(key string, fn func() (*DocResult, error)) (*DocResult, error) {
	e.mu.Lock()
	if r, ok := e.rendered[key]; ok {
		e.mu.Unlock()
		return r, nil
	}
	e.mu.Unlock()
	r, err := fn()
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rendered == nil || len(e.rendered) >= maxRendered {
		e.rendered = map[string]*DocResult{}
	}
	e.rendered[key] = r
	return r, nil
}

func (e *entry) index() *search.Index {
	e.once.Do(func() { e.ix = search.Build(e.pkg) })
	return e.ix
}

func weight(v any) int64 {
	e, ok := v.(*entry)
	if !ok {
		return 1
	}
	n := int64(1024)
	for _, s := range e.pkg.Sections {
		n += int64(len(s.Markdown))
	}
	for _, s := range e.pkg.Symbols {
		n += int64(len(s.Signature) + len(s.Doc) + len(s.Name))
	}
	for _, x := range e.pkg.Examples {
		n += int64(len(x.Code) + len(x.Doc) + len(x.Output))
	}
	return n * 3 // indexes and overhead
}

// pkgRequest names the package a question is about: its cache key (the
// ecosystem, the name, the version asked, the project, and whatever else
// selects what is read), whether the version asked is immutable, the
// project directory, if any, and how to read the package.
type pkgRequest struct {
	key     string
	exact   bool
	project string
	fetch   func(context.Context) (*model.Package, error)
}

// loadRequest returns the cached package r names (load).
func (s *Service) loadRequest(ctx context.Context, r *pkgRequest) (*entry, error) {
	return s.load(ctx, r.key, r.exact, r.project, r.fetch)
}

// load returns the cached package for key, calling fn on a miss. Exact
// versions are immutable: they stay 24 hours in memory and, with a cache
// directory, on disk across restarts. Anything resolved ("latest", a
// range, a lockfile) is kept 10 minutes; not-found answers 2 minutes;
// transient failures never. With a shared store, a request that names no
// project is answered from it when another instance read the package
// (fetchShared).
func (s *Service) load(ctx context.Context, key string, exact bool, project string, fn func(context.Context) (*model.Package, error)) (*entry, error) {
	ttl := 10 * time.Minute
	if exact {
		ttl = 24 * time.Hour
	}
	pol := cache.Policy{TTL: ttl, NegativeTTL: 2 * time.Minute, Transient: fetch.IsTransient, Weight: weight, TTLFor: partialTTL}
	v, stale, err := s.mem.Load(ctx, key, pol, func(ctx context.Context) (any, error) {
		if exact && s.disk != nil {
			if data, ok := s.disk.Get(key); ok {
				var p model.Package
				if json.Unmarshal(data, &p) == nil {
					return newEntry(&p), nil
				}
			}
		}
		// Neither memory nor disk holds it: a cold answer, whose progress
		// the reporter the caller may have put in ctx follows from here.
		progress.FromContext(ctx).Resolving()
		p, err := s.fetchShared(ctx, key, exact, project == "", fn)
		if err != nil {
			return nil, err
		}
		e := newEntry(p) // what the disk keeps is the cleaned package too
		if s.disk != nil && p.Version != "" && p.Version != "local" && !p.Partial {
			if data, err := json.Marshal(e.pkg); err == nil {
				_ = s.disk.Put(key, data) // the disk cache is best effort
			}
		}
		return e, nil
	})
	if err != nil {
		return nil, cleanError(classify(err))
	}
	e := v.(*entry)
	if stale {
		cp := *e.pkg
		cp.Stale = true
		return &entry{pkg: &cp, symix: e.symix}, nil
	}
	return e, nil
}

// partialTTL keeps answers built while an optional upstream was failing
// for two minutes only, so that the full answer replaces them soon.
func partialTTL(v any) time.Duration {
	if e, ok := v.(*entry); ok && e.pkg.Partial {
		return 2 * time.Minute
	}
	return 0
}

// checkProject validates a projectPath argument: it must be an existing
// directory (only known manifest and lock files are read from it).
func checkProject(project string) error {
	if project == "" {
		return nil
	}
	if st, err := os.Stat(project); err != nil || !st.IsDir() {
		return fmt.Errorf("%w: projectPath %q is not a directory", ErrInvalidArgument, project)
	}
	return nil
}

func provenance(p *model.Package) Provenance {
	return Provenance{
		Name: p.Name, Version: p.Version, Ecosystem: p.Ecosystem, Registry: p.Registry,
		Source: p.SourceURL, Origin: p.Origin, ResolvedFrom: p.ResolvedFrom, Stale: p.Stale,
	}
}

// renderDoc packs blocks into one page of a DocResult.
// A page beyond the last, or below 1, is an invalid argument.
func renderDoc(p *model.Package, blocks []render.Block, maxTokens, def, page int, tool string) (*DocResult, error) {
	if page < 0 {
		return nil, fmt.Errorf("%w: page %d: pages start at 1", ErrInvalidArgument, page)
	}
	budget := render.ClampBudget(maxTokens, def)
	pg := render.Pack(render.Header(p), blocks, render.Options{
		MaxTokens: budget, Page: page,
		PageHint: func(n int) string { return fmt.Sprintf("call %s with the same arguments and page=%d", tool, n) },
	})
	if page > pg.Pages {
		return nil, fmt.Errorf("%w: page %d is beyond the last page (%d) of %s@%s at maxTokens %d", ErrInvalidArgument, page, pg.Pages, p.Name, p.Version, budget)
	}
	return &DocResult{
		Provenance: provenance(p), Markdown: pg.Markdown, Tokens: pg.Tokens, TotalTokens: pg.TotalTokens,
		Page: pg.Page, Pages: pg.Pages, NextPage: pg.NextPage, Truncated: pg.Truncated, Omitted: pg.Omitted,
	}, nil
}

// describe renders a whole package, or one symbol of it, once per set of
// arguments.
func describe(e *entry, symbol string, inc render.Include, maxTokens, page int, tool string) (*DocResult, error) {
	key := fmt.Sprintf("%s\x00%s\x00%v\x00%d\x00%d", tool, symbol, inc, maxTokens, page)
	return e.memo(key, func() (*DocResult, error) { return describePackage(e, symbol, inc, maxTokens, page, tool) })
}

// describePackage renders an answer afresh (the package layout is
// computed once per entry).
func describePackage(e *entry, symbol string, inc render.Include, maxTokens, page int, tool string) (*DocResult, error) {
	p := e.pkg
	var blocks []render.Block
	if symbol == "" {
		blocks = e.blocksFor(inc)
	}
	if symbol != "" {
		blocks = e.symbolBlocks(symbol)
		if blocks == nil {
			return nil, symbolNotFound(p, symbol)
		}
	}
	return renderDoc(p, blocks, maxTokens, DefaultDescribeTokens, page, tool)
}

func symbolNotFound(p *model.Package, symbol string) error {
	names := make([]string, 0, len(p.Symbols))
	// A name asked without its qualification ("Flsk" for flask.Flask) is
	// compared with the same number of trailing components of each name.
	parts := strings.Count(symbol, ".") + 1
	tails := map[string]string{}
	var tailNames []string
	for _, s := range p.Symbols {
		names = append(names, s.Name)
		if t := lastComponents(s.Name, parts); t != s.Name {
			if _, ok := tails[t]; !ok {
				tails[t] = s.Name
				tailNames = append(tailNames, t)
			}
		}
	}
	msg := fmt.Sprintf("%s@%s has no exported symbol %q", p.Name, p.Version, symbol)
	var sugg []string
	for _, t := range search.Suggest(tailNames, symbol, 3) {
		sugg = append(sugg, tails[t])
	}
	for _, n := range search.Suggest(names, symbol, 3) {
		if len(sugg) < 3 && !slices.Contains(sugg, n) {
			sugg = append(sugg, n)
		}
	}
	if len(names) == 0 {
		msg += " (no API symbols were found for this package; try search_package_docs)"
	} else if len(sugg) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sugg, ", "))
	}
	return fmt.Errorf("%s: %w", msg, ErrNotFound)
}

// lastComponents returns the last n dot-separated components of name.
func lastComponents(name string, n int) string {
	i := len(name)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(name[:i], '.')
		if i < 0 {
			return name
		}
	}
	return name[i+1:]
}

// ErrNotFound reports a package, version or symbol that does not exist.
var ErrNotFound = errors.New("not found")

func required(name, v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("%w: %s is required", ErrInvalidArgument, name)
	}
	return nil
}
