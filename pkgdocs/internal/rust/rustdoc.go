package rust

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Supported rustdoc JSON format versions. Older output used another item
// layout and is refused (the caller falls back to scanning the source);
// newer output is read best-effort, since most format changes rename or add
// fields the generic reader tolerates.
const (
	MinFormatVersion    = 20
	MaxTestedFormatVers = 57
)

// Sentinel errors.
var (
	ErrFormatVersion = errors.New("unsupported rustdoc JSON format_version")
	ErrRustdoc       = errors.New("malformed rustdoc JSON")
)

// maxRustdocBytes bounds the decompressed JSON (tokio's is about 20 MB;
// the few crates above this get the source scan instead).
const maxRustdocBytes = 128 << 20

// Rustdoc is the public API of a crate read from rustdoc JSON.
type Rustdoc struct {
	FormatVersion int
	CrateVersion  string
	CrateDocs     string // the root module's documentation (lib.rs //! docs)
	Symbols       []model.Symbol
	Truncated     bool // more than the symbol limit were public
}

// rawItem is one entry of the rustdoc index, decoded on demand.
type rawItem struct {
	Name        *string `json:"name"`
	Visibility  any     `json:"visibility"`
	Docs        *string `json:"docs"`
	Kind        string  `json:"kind"` // before the inner enum carried the kind
	Inner       any     `json:"inner"`
	Attrs       []any   `json:"attrs"`
	Deprecation *struct {
		Since *string `json:"since"`
		Note  *string `json:"note"`
	} `json:"deprecation"`
	Span *struct {
		Filename string `json:"filename"`
	} `json:"span"`
}

func (it *rawItem) name() string {
	if it.Name == nil {
		return ""
	}
	return *it.Name
}

func (it *rawItem) docs() string {
	if it.Docs == nil {
		return ""
	}
	return *it.Docs
}

// variant returns the item's kind and kind-specific payload.
func (it *rawItem) variant() (string, any) {
	if it.Kind != "" {
		if m, ok := it.Inner.(map[string]any); ok && len(m) != 1 {
			return it.Kind, it.Inner
		}
	}
	tag, p := variant(it.Inner)
	if tag == "typedef" {
		tag = "type_alias"
	}
	if tag == "import" {
		tag = "use"
	}
	return tag, p
}

func (it *rawItem) public() bool {
	return str(it.Visibility) == "public"
}

// ReadRustdoc decodes rustdoc JSON, gzip-compressed or plain, and lists the
// crate's public API reachable from its root module: public items,
// re-exports (followed when the target is documented in the same file),
// inherent methods, trait members. At most maxSymbols symbols are kept.
func ReadRustdoc(data []byte, maxSymbols int) (*Rustdoc, error) {
	var r io.Reader = bytes.NewReader(data)
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrRustdoc, err)
		}
		defer gz.Close()
		r = gz
	}
	lr := &io.LimitedReader{R: r, N: maxRustdocBytes + 1}
	var doc struct {
		Root          json.RawMessage            `json:"root"`
		CrateVersion  *string                    `json:"crate_version"`
		FormatVersion int                        `json:"format_version"`
		Index         map[string]json.RawMessage `json:"index"`
	}
	if err := json.NewDecoder(lr).Decode(&doc); err != nil {
		if lr.N <= 0 {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrRustdoc, maxRustdocBytes)
		}
		return nil, fmt.Errorf("%w: %v", ErrRustdoc, err)
	}
	if doc.FormatVersion == 0 || doc.Index == nil {
		return nil, fmt.Errorf("%w: no format_version or index", ErrRustdoc)
	}
	if doc.FormatVersion < MinFormatVersion {
		return nil, fmt.Errorf("%w: %d (this reader needs %d or newer)", ErrFormatVersion, doc.FormatVersion, MinFormatVersion)
	}
	if maxSymbols <= 0 {
		maxSymbols = 3000
	}
	w := &walker{index: doc.Index, items: map[string]*rawItem{}, done: map[string]bool{}, max: maxSymbols}
	rootID := strings.Trim(string(doc.Root), `"`)
	root := w.item(rootID)
	if root == nil {
		return nil, fmt.Errorf("%w: root item %s is not in the index", ErrRustdoc, rootID)
	}
	out := &Rustdoc{FormatVersion: doc.FormatVersion, CrateDocs: root.docs()}
	if doc.CrateVersion != nil {
		out.CrateVersion = *doc.CrateVersion
	}
	w.walk(rootID)
	out.Symbols, out.Truncated = w.out, w.truncated
	return out, nil
}

type walker struct {
	index     map[string]json.RawMessage
	items     map[string]*rawItem
	done      map[string]bool
	out       []model.Symbol
	max       int
	truncated bool
	queue     []queued
}

type queued struct {
	id, prefix string
	depth      int
}

const maxModuleDepth = 8

// item decodes the index entry id, or returns nil.
func (w *walker) item(id string) *rawItem {
	if it, ok := w.items[id]; ok {
		return it
	}
	raw, ok := w.index[id]
	var it *rawItem
	if ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var x rawItem
		if dec.Decode(&x) == nil {
			it = &x
		}
	}
	w.items[id] = it
	return it
}

func (w *walker) add(s model.Symbol) {
	if len(w.out) >= w.max {
		w.truncated = true
		return
	}
	w.out = append(w.out, s)
}

// walk visits modules breadth first, so every item gets its shortest
// public path.
func (w *walker) walk(rootID string) {
	w.done[rootID] = true
	w.queue = []queued{{id: rootID}}
	for len(w.queue) > 0 && !w.truncated {
		q := w.queue[0]
		w.queue = w.queue[1:]
		_, mod := w.item(q.id).variant()
		for _, v := range arr(obj(mod, "items")) {
			w.visit(str(v), q)
		}
	}
}

// visit handles one member of a module.
func (w *walker) visit(id string, q queued) {
	it := w.item(id)
	if it == nil || !it.public() {
		return
	}
	tag, p := it.variant()
	if tag != "use" {
		w.emit(id, it, q, it.name())
		return
	}
	target, name, source := str(obj(p, "id")), str(obj(p, "name")), str(obj(p, "source"))
	glob := truthy(first(p, "is_glob", "glob"))
	tit := w.item(target)
	switch {
	case tit == nil: // a re-export from another crate (or a primitive)
		sig := "pub use " + source
		display := q.prefix + name
		if glob {
			sig += "::*"
			display = q.prefix + source + "::*"
		} else if name != "" && !strings.HasSuffix(source, "::"+name) && source != name {
			sig += " as " + name
		}
		w.add(model.Symbol{Name: display, Kind: "use", Signature: sig + ";", Doc: it.docs()})
	case glob:
		if t, _ := tit.variant(); t == "module" && !w.done[target] && q.depth < maxModuleDepth {
			w.done[target] = true
			w.queue = append(w.queue, queued{id: target, prefix: q.prefix, depth: q.depth + 1})
		}
	default:
		w.emit(target, tit, q, name)
	}
}

// emit records one item (and, for types and traits, their members) under
// name in the module q.
func (w *walker) emit(id string, it *rawItem, q queued, name string) {
	if w.done[id] || name == "" {
		return
	}
	w.done[id] = true
	tag, p := it.variant()
	full := q.prefix + name
	sym := model.Symbol{Name: full, Doc: it.docs()}
	if it.Span != nil {
		sym.File = it.Span.Filename
	}
	sym.Doc = it.deprecatedDoc(sym.Doc)
	attrs := attrLines(it.Attrs)
	switch tag {
	case "module":
		sym.Kind, sym.Signature = "mod", "pub mod "+name
		if q.depth < maxModuleDepth {
			w.queue = append(w.queue, queued{id: id, prefix: full + "::", depth: q.depth + 1})
		}
	case "function":
		sym.Kind, sym.Signature = "function", fnSignature("pub ", name, p)
	case "struct", "union":
		sym.Kind, sym.Signature = tag, attrs+w.structSignature(tag, name, p)
	case "enum":
		sym.Kind, sym.Signature = "enum", attrs+w.enumSignature(name, p)
	case "trait":
		sym.Kind, sym.Signature = "trait", w.traitSignature(name, p)
	case "trait_alias":
		sym.Kind = "trait"
		sym.Signature = "pub trait " + name + genericsString(obj(p, "generics")) + " = " + boundsString(arr(first(p, "params", "bounds"))) + ";"
	case "type_alias":
		sym.Kind = "type alias"
		sym.Signature = "pub type " + name + genericsString(obj(p, "generics")) + whereString(obj(p, "generics")) + " = " + typeString(obj(p, "type")) + ";"
	case "constant":
		sym.Kind = "const"
		sym.Signature = "pub const " + name + ": " + typeString(obj(p, "type")) + valueSuffix(first(obj(p, "const"), "expr")) + ";"
		if obj(p, "const") == nil {
			sym.Signature = "pub const " + name + ": " + typeString(obj(p, "type")) + valueSuffix(obj(p, "expr")) + ";"
		}
	case "static":
		mut := ""
		if truthy(first(p, "is_mutable", "mutable")) {
			mut = "mut "
		}
		sym.Kind = "static"
		sym.Signature = "pub static " + mut + name + ": " + typeString(obj(p, "type")) + valueSuffix(obj(p, "expr")) + ";"
	case "macro":
		sym.Kind, sym.Signature = "macro", clipLines(str(p), 20)
	case "proc_macro":
		sym.Kind, sym.Signature = "macro", procMacroSignature(name, p)
	case "extern_type":
		sym.Kind, sym.Signature = "type alias", "pub type "+name+";"
	default:
		return // primitives, impls, fields and variants are reached through their owners
	}
	if impls := arr(obj(p, "impls")); len(impls) > 0 {
		w.impls(full, impls, &sym)
		return
	}
	w.add(sym)
	if tag == "trait" {
		w.traitMembers(full, p)
	}
}

// deprecatedDoc returns doc headed by the item's deprecation note, if it
// has one.
func (it *rawItem) deprecatedDoc(doc string) string {
	d := it.Deprecation
	if d == nil {
		return doc
	}
	note := "**Deprecated**"
	if d.Since != nil && *d.Since != "" {
		note += " since " + *d.Since
	}
	if d.Note != nil && *d.Note != "" {
		note += ": " + *d.Note
	}
	return strings.TrimSpace(note + "\n\n" + doc)
}

// procMacroSignature shows how a procedural macro is used: as a derive, an
// attribute or a function-like macro.
func procMacroSignature(name string, p any) string {
	switch str(obj(p, "kind")) {
	case "derive":
		return "#[derive(" + name + ")]"
	case "attr":
		return "#[" + name + "]"
	default:
		return name + "!(…)"
	}
}

func valueSuffix(expr any) string {
	if e := str(expr); e != "" && e != "_" {
		return " = " + e
	}
	return ""
}

// attrLines renders the attributes a reader of a signature cares about.
func attrLines(attrs []any) string {
	var b strings.Builder
	for _, a := range attrs {
		s := str(a)
		if s == "" {
			s, _ = variant(a)
		}
		s = strings.TrimSpace(s)
		if s == "non_exhaustive" || s == "#[non_exhaustive]" {
			b.WriteString("#[non_exhaustive]\n")
		}
	}
	return b.String()
}

func clipLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "    // …")
	}
	return strings.Join(lines, "\n")
}

// fnSignature renders a function item: vis + qualifiers + fn name<G>(...) -> R where ...
func fnSignature(vis, name string, fn any) string {
	g := obj(fn, "generics")
	return vis + headerString(obj(fn, "header")) + "fn " + name + genericsString(g) + sigString(first(fn, "sig", "decl")) + whereString(g)
}
