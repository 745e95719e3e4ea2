package skills

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"

	"github.com/gomcp/sdk/mcp"
)

// Settings are a server's settings of the extension, declared in its
// capabilities.
type Settings struct {
	// DirectoryRead tells clients that the server answers
	// resources/directory/read on its skills' folders.
	DirectoryRead bool `json:"directoryRead,omitempty"`
}

// EnableClient declares, for c, that it uses skills, and returns c. Call
// it before connecting.
func EnableClient(c *mcp.Client) *mcp.Client {
	c.AddExtension(ExtensionID, nil)
	return c
}

// DefaultPageSize is how many entries a page of skills/list and
// resources/directory/read holds by default.
const DefaultPageSize = 50

// ServeOptions are options of AddCatalog; nil means defaults.
type ServeOptions struct {
	// PageSize is how many entries one page holds (default
	// DefaultPageSize).
	PageSize int
	// DirectoryRead serves resources/directory/read on the skills'
	// folders, and says so in the extension's Settings.
	DirectoryRead bool
	// CacheHint is what 2026-07-28 results of skills/list and skills/get
	// tell clients about caching them (default: immediately stale,
	// private).
	CacheHint mcp.CacheHint
}

// AddCatalog turns the extension on for s and serves c there: it declares
// the extension in the server's capabilities, with Settings that follow
// opts, and serves skills/list, skills/get, every file of every skill as a
// resource (SKILL.md named and described by its frontmatter), and, if
// opts.DirectoryRead, resources/directory/read.
func AddCatalog(s *mcp.Server, c *Catalog, opts *ServeOptions) {
	o := ServeOptions{}
	if opts != nil {
		o = *opts
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	h := &catalogHandler{c: c, opts: o}
	methods := []*mcp.Method[mcp.ServerSession]{
		mcp.NewServerMethod(MethodList, h.list, nil),
		mcp.NewServerMethod(MethodGet, h.get, nil),
	}
	if o.DirectoryRead {
		methods = append(methods, mcp.NewServerMethod(MethodDirectoryRead, h.directoryRead, nil))
	}
	s.AddResources(c.resources()...)
	s.AddExtension(ExtensionID, Settings{DirectoryRead: o.DirectoryRead}, methods...)
}

// resources returns a server resource for every file of the catalog.
func (c *Catalog) resources() []*mcp.ServerResource {
	uris := make([]string, 0, len(c.files))
	for uri := range c.files {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	out := make([]*mcp.ServerResource, 0, len(uris))
	for _, uri := range uris {
		f := c.files[uri]
		size := int64(len(f.data))
		r := &mcp.Resource{URI: f.uri, Name: f.name, MIMEType: f.mimeType, Size: &size}
		if f.uri == f.skill.entry.URI {
			r.Description, _ = f.skill.entry.Frontmatter["description"].(string)
		}
		out = append(out, &mcp.ServerResource{Resource: r, Handler: f.read})
	}
	return out
}

// read serves resources/read of the file: text as text, other bytes as a
// blob, so that the bytes read are the bytes digested.
func (f *file) read(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	c := mcp.NewBlobResourceContents(f.uri, f.mimeType, f.data)
	if f.text {
		c = mcp.NewTextResourceContents(f.uri, f.mimeType, string(f.data))
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// catalogHandler serves the extension's methods for one catalog.
type catalogHandler struct {
	c    *Catalog
	opts ServeOptions
}

func invalidParams(format string, args ...any) error {
	return &mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// resultType is the resultType member of a result for the session's
// revision: "complete" from 2026-07-28 on, absent before.
func resultType(ss *mcp.ServerSession) string {
	if ss.ProtocolVersion() < mcp.Version20260728 {
		return ""
	}
	return "complete"
}

// cacheHint returns the cache members of a result for the session's
// revision: set from 2026-07-28 on, absent before.
func (h *catalogHandler) cacheHint(ss *mcp.ServerSession) (*int64, string) {
	if ss.ProtocolVersion() < mcp.Version20260728 {
		return nil, ""
	}
	ms := max(h.opts.CacheHint.TTL.Milliseconds(), 0)
	scope := h.opts.CacheHint.Scope
	if scope == "" {
		scope = mcp.CacheScopePrivate
	}
	return &ms, scope
}

func (h *catalogHandler) list(ctx context.Context, ss *mcp.ServerSession, p *ListParams) (*ListResult, error) {
	start, err := pageStart(p.Cursor, len(h.c.skills), func(i int) string { return h.c.skills[i].entry.URI })
	if err != nil {
		return nil, err
	}
	end := min(start+h.opts.PageSize, len(h.c.skills))
	res := &ListResult{Skills: make([]Entry, 0, end-start)}
	for _, s := range h.c.skills[start:end] {
		res.Skills = append(res.Skills, s.entry)
	}
	if end < len(h.c.skills) {
		res.NextCursor = cursorAfter(h.c.skills[end-1].entry.URI)
	}
	res.TTLMs, res.CacheScope = h.cacheHint(ss)
	res.ResultType = resultType(ss)
	return res, nil
}

func (h *catalogHandler) get(ctx context.Context, ss *mcp.ServerSession, p *GetParams) (*GetResult, error) {
	s, ok := h.c.byURI[p.URI]
	if !ok {
		return nil, invalidParams("%s: no skill at %q", MethodGet, p.URI)
	}
	res := &GetResult{Skill: s.entry, ResultType: resultType(ss)}
	res.TTLMs, res.CacheScope = h.cacheHint(ss)
	return res, nil
}

func (h *catalogHandler) directoryRead(ctx context.Context, ss *mcp.ServerSession, p *DirectoryReadParams) (*DirectoryReadResult, error) {
	children, ok := h.c.dirs[p.URI]
	if !ok {
		return nil, invalidParams("%s: %q is not a folder this server serves", MethodDirectoryRead, p.URI)
	}
	sorted := append([]*mcpChild(nil), children...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].uri < sorted[j].uri })
	start, err := pageStart(p.Cursor, len(sorted), func(i int) string { return sorted[i].uri })
	if err != nil {
		return nil, err
	}
	end := min(start+h.opts.PageSize, len(sorted))
	res := &DirectoryReadResult{Resources: make([]*mcp.Resource, 0, end-start), ResultType: resultType(ss)}
	for _, ch := range sorted[start:end] {
		r := &mcp.Resource{URI: ch.uri, Name: ch.name, MIMEType: ch.mimeType}
		if !ch.dir {
			size := ch.size
			r.Size = &size
		}
		res.Resources = append(res.Resources, r)
	}
	if end < len(sorted) {
		res.NextCursor = cursorAfter(sorted[end-1].uri)
	}
	return res, nil
}

// cursorAfter is the cursor of the page that starts after key.
func cursorAfter(key string) string { return base64.RawURLEncoding.EncodeToString([]byte(key)) }

// pageStart returns the index of the first of n sorted keys after the
// cursor's key (0 for no cursor), or a -32602 error for a cursor this
// server did not make.
func pageStart(cursor string, n int, key func(int) string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	last, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(last) == 0 {
		return 0, invalidParams("invalid cursor")
	}
	return sort.Search(n, func(i int) bool { return key(i) > string(last) }), nil
}
