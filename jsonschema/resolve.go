package jsonschema

import (
	"errors"
	"fmt"
	"net/url"
)

// Sentinel errors of Resolve, for errors.Is.
var (
	// ErrNoLoader: a $ref or $schema names a remote schema, and no Loader was
	// given (or the Loader returned it). Nothing is ever fetched implicitly.
	ErrNoLoader = errors.New("remote schema needs a Loader")
	// ErrUnresolvedRef: a $ref, $dynamicRef or $schema cannot be resolved
	// (unknown anchor, bad JSON pointer, or a Loader error).
	ErrUnresolvedRef = errors.New("unresolved reference")
	// ErrRefCycle: $refs refer to each other in a cycle that never reaches
	// a keyword, so evaluating them could never end.
	ErrRefCycle = errors.New("$ref cycle")
)

// A Loader returns the schema document identified by an absolute URI (without
// fragment). Resolve calls it at most once per URI, for each $ref or $schema
// that names a document not embedded in the schema being resolved. Loaders
// decide what is reachable: this package never reads files or the network by
// itself. The JSON Schema meta-schemas of draft 2020-12 and draft-07 are
// built in and never passed to the Loader.
type Loader func(uri *url.URL) (*Schema, error)

// ResolveOptions configures Resolve. A nil *ResolveOptions means defaults.
type ResolveOptions struct {
	// BaseURI is the base URI of the root schema, against which its $id and
	// relative references resolve. It is optional.
	BaseURI string
	// Loader loads remote schemas. If nil, references to schemas outside the
	// root document (other than the built-in meta-schemas) are errors.
	Loader Loader
	// DefaultDialect is the $schema URI assumed for documents without
	// $schema: Draft202012 (the default), Draft201909 or Draft7.
	DefaultDialect string
	// AssertFormat makes the format keyword an assertion: strings must be
	// valid date-times, emails, URIs and so on (see the package
	// documentation for the list). By default format is only an annotation,
	// as draft 2020-12 specifies. A meta-schema with the format-assertion
	// vocabulary turns it on for the schemas using it.
	AssertFormat bool
	// AssertContent makes contentEncoding (base64) and contentMediaType
	// (application/json) assertions: the string must decode, and the result
	// must be valid JSON. By default they are annotations, as draft 2020-12
	// specifies; draft-07 allowed either.
	AssertContent bool
	// MaxErrors is the most errors a ValidationError lists (default 10). Set
	// it to 1 to stop at the first error; a negative value means no limit.
	MaxErrors int
	// ValidateDefaults makes Resolve check that every "default" value of a
	// schema in a properties keyword validates against that schema.
	ValidateDefaults bool
}

// A Resolved is a compiled schema, ready to validate instances. It is
// immutable and safe for concurrent use.
type Resolved struct {
	root       *node
	schema     *Schema
	maxErrors  int
	trackScope bool // some $dynamicRef needs the dynamic scope
}

// Schema returns the schema that was resolved. It must not be modified.
func (rs *Resolved) Schema() *Schema { return rs.schema }

// Resolve compiles s into a Resolved. It resolves every $ref, $dynamicRef,
// $anchor and $id (loading remote documents only through opts.Loader),
// compiles regular expressions, and checks keyword values. Resolve does not
// modify s; later changes to s do not affect the Resolved.
func (s *Schema) Resolve(opts *ResolveOptions) (*Resolved, error) {
	if s == nil {
		return nil, errors.New("jsonschema: Resolve of a nil *Schema")
	}
	if opts == nil {
		opts = &ResolveOptions{}
	}
	r := &resolver{
		opts:      opts,
		nodes:     make(map[*Schema]*node, 16),
		resources: make(map[string]*resource),
		anchors:   make(map[string]*node),
		dialects:  make(map[string]*dialect),
	}
	root, err := r.addDocument(s, opts.BaseURI)
	if err != nil {
		return nil, err
	}
	if err := r.compile(root); err != nil {
		return nil, err
	}
	if err := r.checkRefCycles(root); err != nil {
		return nil, err
	}
	rs := &Resolved{root: root, schema: s, maxErrors: opts.MaxErrors, trackScope: r.dynamic}
	if rs.maxErrors == 0 {
		rs.maxErrors = 10
	}
	if opts.ValidateDefaults {
		if err := r.validateDefaults(rs); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// resolver holds the state of one Resolve call.
type resolver struct {
	opts      *ResolveOptions
	nodes     map[*Schema]*node    // every indexed schema
	resources map[string]*resource // by absolute URI without fragment
	anchors   map[string]*node     // by "uri#name"
	dialects  map[string]*dialect  // custom meta-schemas by URI
	refs      []*node              // nodes with $ref or $dynamicRef, for cycle checks
	loads     int
	dynamic   bool
}

// resource is a schema resource: a schema with an $id or a document root.
type resource struct {
	uri        string
	root       *node
	dialect    *dialect
	dynAnchors map[string]*node // $dynamicAnchor name -> schema
}

// addDocument indexes a document whose retrieval URI is uri ("" if none) and
// returns its root node.
func (r *resolver) addDocument(s *Schema, uri string) (*node, error) {
	d, err := r.documentDialect(s)
	if err != nil {
		return nil, err
	}
	if uri != "" {
		u, err := url.Parse(uri)
		if err != nil {
			return nil, fmt.Errorf("jsonschema: base URI %q: %w", uri, err)
		}
		u.Fragment, u.RawFragment = "", ""
		uri = u.String()
	}
	res := &resource{uri: uri, dialect: d}
	if err := r.walk(s, walkPos{res: res, d: d, idx: -1}, 0); err != nil {
		return nil, err
	}
	root := r.nodes[s]
	if root.res == res {
		res.root = root
	}
	if _, taken := r.resources[uri]; !taken {
		// With an $id, the root is also known under its retrieval URI.
		r.resources[uri] = root.res
	}
	return root, nil
}

// documentDialect returns the dialect of a document root.
func (r *resolver) documentDialect(s *Schema) (*dialect, error) {
	if s.Schema != "" {
		return r.dialectOf(s.Schema)
	}
	if r.opts.DefaultDialect != "" {
		d := builtinDialect(r.opts.DefaultDialect)
		if d == nil {
			return nil, fmt.Errorf("jsonschema: unsupported DefaultDialect %q", r.opts.DefaultDialect)
		}
		return d, nil
	}
	return dialect2020, nil
}

// resource returns the resource with the given absolute URI (without
// fragment), loading it if needed.
func (r *resolver) resource(uri string) (*resource, error) {
	if res, ok := r.resources[uri]; ok {
		return res, nil
	}
	s, err := metaSchema(uri)
	if err != nil {
		return nil, err
	}
	if s == nil {
		s, err = r.load(uri)
		if err != nil {
			return nil, err
		}
	}
	if _, err := r.addDocument(s, uri); err != nil {
		return nil, err
	}
	res, ok := r.resources[uri]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnresolvedRef, uri)
	}
	return res, nil
}

// load fetches a remote document through the Loader.
func (r *resolver) load(uri string) (*Schema, error) {
	if r.opts.Loader == nil {
		return nil, fmt.Errorf("jsonschema: %w: %s", ErrNoLoader, uri)
	}
	r.loads++
	if r.loads > 1000 {
		return nil, fmt.Errorf("jsonschema: more than 1000 remote documents loaded")
	}
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() {
		return nil, fmt.Errorf("jsonschema: %w: cannot load %q: not an absolute URI", ErrUnresolvedRef, uri)
	}
	s, err := r.opts.Loader(u)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: %w: loading %s: %w", ErrUnresolvedRef, uri, err)
	}
	if s == nil {
		return nil, fmt.Errorf("jsonschema: %w: Loader returned no schema for %s", ErrUnresolvedRef, uri)
	}
	return s, nil
}

// resolveURI resolves ref against base and splits off the fragment
// (percent-decoded).
func resolveURI(base, ref string) (doc, fragment string, err error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", "", fmt.Errorf("jsonschema: %w: %q: %w", ErrUnresolvedRef, ref, err)
	}
	if base != "" {
		b, err := url.Parse(base)
		if err != nil {
			return "", "", fmt.Errorf("jsonschema: base URI %q: %w", base, err)
		}
		u = b.ResolveReference(u)
	}
	fragment = u.Fragment
	u.Fragment, u.RawFragment = "", ""
	return u.String(), fragment, nil
}

// lookup finds the schema that a reference (already resolved to an absolute
// document URI and a fragment) points to.
func (r *resolver) lookup(doc, fragment string) (*node, error) {
	if fragment != "" && fragment[0] != '/' {
		if n, ok := r.anchors[doc+"#"+fragment]; ok {
			return n, nil
		}
	}
	res, err := r.resource(doc)
	if err != nil {
		return nil, err
	}
	if fragment == "" {
		return res.root, nil
	}
	if fragment[0] == '/' {
		return r.pointer(res, fragment)
	}
	if n, ok := r.anchors[res.uri+"#"+fragment]; ok {
		return n, nil
	}
	return nil, fmt.Errorf("jsonschema: %w: no anchor %q in %s", ErrUnresolvedRef, fragment, doc)
}
