package swift

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrManifest reports a Package.swift without a readable Package(...)
// initializer.
var ErrManifest = errors.New("unreadable Package.swift")

// Manifest is what pkgdocs reads from a Package.swift, parsed as text and
// never executed.
type Manifest struct {
	ToolsVersion string
	Name         string
	Platforms    []string // e.g. "macOS 10.15", "iOS 13"
	Products     []Product
	Targets      []Target
	Dependencies []Dependency
	// Incomplete is set when something could not be read statically
	// (computed values, unknown variables); the rest is still right.
	Incomplete bool
}

// Product is a library, executable or plugin the package offers.
type Product struct {
	Name    string
	Kind    string   // library, executable, plugin
	Type    string   // .static or .dynamic for libraries, if set
	Targets []string // modules it contains
}

// Target is a module of the package.
type Target struct {
	Name         string
	Kind         string // target, executableTarget, testTarget, macro, plugin, binaryTarget, systemLibrary
	Path         string
	Dependencies []string // "Module" or "Product (package)"
}

// Dependency is another package this one depends on.
type Dependency struct {
	Location    string // URL, path or registry identity
	Requirement string // e.g. from: "1.0.0", "1.0.0"..<"2.0.0", branch: "main"
}

var toolsVersionRE = regexp.MustCompile(`(?m)\A\s*//\s*swift-tools-version\s*:\s*([0-9][0-9.]*)`)

// ParseManifest reads a Package.swift. Top-level let/var bindings used as
// argument values are substituted, array concatenation with + is followed,
// `package.x += [...]` and `package.x.append(...)` are applied, and both
// branches of #if are read.
func ParseManifest(src []byte) (*Manifest, error) {
	m := &Manifest{}
	if sub := toolsVersionRE.FindSubmatch(src); sub != nil {
		m.ToolsVersion = string(sub[1])
	}
	p := &parser{toks: lex(string(src)), src: string(src)}
	vars := map[string]*expr{}
	var pkg *expr
	var pkgVar string
	type mutation struct {
		field string
		val   *expr
	}
	var muts []mutation
	for p.i < len(p.toks) {
		p.skipDirectives()
		t := p.peek()
		if t == nil {
			break
		}
		switch {
		case t.kind == tIdent && (t.text == "let" || t.text == "var") && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tIdent:
			name := p.toks[p.i+1].text
			p.i += 2
			if !p.skipToAssignment() {
				continue
			}
			val := p.parseExpr()
			vars[name] = val
			if val.kind == exCall && (val.name == "Package" || val.name == "PackageDescription.Package") {
				pkg, pkgVar = val, name
			}
		case t.kind == tIdent && pkgVar != "" && strings.HasPrefix(t.text, pkgVar):
			from := p.i
			lhs := p.parsePostfix()
			switch {
			case p.at("+") && p.i+1 < len(p.toks) && p.toks[p.i+1].text == "=":
				p.i += 2
				muts = append(muts, mutation{strings.TrimPrefix(lhs.name, pkgVar+"."), p.parseExpr()})
			case lhs.kind == exCall && strings.HasSuffix(lhs.name, ".append") && len(lhs.args) == 1:
				field := strings.TrimSuffix(strings.TrimPrefix(lhs.name, pkgVar+"."), ".append")
				v := lhs.args[0].val
				if lhs.args[0].label == "" {
					v = &expr{kind: exArray, elems: []*expr{v}}
				}
				muts = append(muts, mutation{field, v})
			default:
				m.Incomplete = true // another change to the package, not read
				if t := p.peek(); t != nil && !t.nl {
					p.skipStatement()
				}
			}
			if p.i == from {
				p.i++
			}
		default:
			p.skipStatement()
		}
	}
	if pkg == nil {
		return nil, fmt.Errorf("%w: no Package(...) initializer", ErrManifest)
	}
	r := &resolver{vars: vars, m: m}
	for _, a := range pkg.args {
		r.field(a.label, a.val)
	}
	for _, mu := range muts {
		r.field(mu.field, mu.val)
	}
	return m, nil
}

// skipToAssignment skips a binding's type annotation up to '='; it returns
// false (having skipped the statement) when there is no initializer.
func (p *parser) skipToAssignment() bool {
	for t := p.peek(); t != nil; t = p.peek() {
		switch {
		case t.kind == tPunct && t.text == "=":
			p.i++
			return true
		case t.nl:
			return false
		case t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{"):
			p.skipBalanced()
		default:
			p.i++
		}
	}
	return false
}

// skipStatement skips tokens up to the next line at bracket depth 0.
func (p *parser) skipStatement() {
	p.i++
	for t := p.peek(); t != nil && !t.nl; t = p.peek() {
		if t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{") {
			p.skipBalanced()
			continue
		}
		p.i++
	}
}

// resolver interprets Package(...) arguments.
type resolver struct {
	vars  map[string]*expr
	m     *Manifest
	depth int
}

// value substitutes variables and returns the elements of array values
// (following + concatenation).
func (r *resolver) elems(e *expr) []*expr {
	e = r.value(e)
	switch {
	case e == nil || r.depth > 20:
		return nil
	case e.kind == exArray:
		return e.elems
	case e.kind == exBinary && e.op == "+" && r.depth < 20:
		r.depth++
		defer func() { r.depth-- }()
		return append(r.elems(e.left), r.elems(e.right)...)
	}
	r.m.Incomplete = true
	return nil
}

func (r *resolver) value(e *expr) *expr {
	for range 10 {
		if e == nil || e.kind != exIdent {
			return e
		}
		v, ok := r.vars[e.name]
		if !ok {
			return e
		}
		e = v
	}
	return e
}

func (r *resolver) str(e *expr) string {
	if e = r.value(e); e != nil && e.kind == exString {
		return e.str
	}
	return ""
}

func (r *resolver) strs(e *expr) []string {
	var out []string
	for _, x := range r.elems(e) {
		if s := r.str(x); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func argOf(args []arg, label string) *expr {
	for _, a := range args {
		if a.label == label {
			return a.val
		}
	}
	return nil
}

func (r *resolver) field(label string, val *expr) {
	switch label {
	case "name":
		r.m.Name = r.str(val)
	case "platforms":
		for _, e := range r.elems(val) {
			if e = r.value(e); e.kind == exCall && len(e.args) > 0 {
				r.m.Platforms = append(r.m.Platforms, strings.TrimPrefix(e.name, ".")+" "+r.platformVersion(e.args[0].val))
			}
		}
	case "products":
		for _, e := range r.elems(val) {
			if e = r.value(e); e.kind == exCall {
				pr := Product{Name: r.str(argOf(e.args, "name")), Kind: strings.TrimPrefix(e.name, "."), Targets: r.strs(argOf(e.args, "targets"))}
				if t := argOf(e.args, "type"); t != nil && t.kind == exIdent {
					pr.Type = t.name
				}
				r.m.Products = append(r.m.Products, pr)
			}
		}
	case "targets":
		for _, e := range r.elems(val) {
			if e = r.value(e); e.kind == exCall {
				t := Target{Name: r.str(argOf(e.args, "name")), Kind: strings.TrimPrefix(e.name, "."), Path: r.str(argOf(e.args, "path"))}
				for _, d := range r.elems(argOf(e.args, "dependencies")) {
					if s := r.targetDependency(d); s != "" {
						t.Dependencies = append(t.Dependencies, s)
					}
				}
				r.m.Targets = append(r.m.Targets, t)
			}
		}
	case "dependencies":
		for _, e := range r.elems(val) {
			if e = r.value(e); e.kind == exCall {
				r.m.Dependencies = append(r.m.Dependencies, r.dependency(e))
			}
		}
	}
}

func (r *resolver) platformVersion(e *expr) string {
	e = r.value(e)
	if e.kind == exString {
		return e.str
	}
	if e.kind == exIdent && strings.HasPrefix(e.name, ".v") {
		return strings.ReplaceAll(strings.TrimPrefix(e.name, ".v"), "_", ".")
	}
	return "?"
}

func (r *resolver) targetDependency(e *expr) string {
	e = r.value(e)
	switch {
	case e.kind == exString:
		return e.str
	case e.kind == exCall && e.name == ".product":
		name, pkg := r.str(argOf(e.args, "name")), r.str(argOf(e.args, "package"))
		if pkg != "" {
			return name + " (" + pkg + ")"
		}
		return name
	case e.kind == exCall:
		return r.str(argOf(e.args, "name"))
	}
	return ""
}

// dependency reads .package(url:|path:|id:|name:, requirement...).
func (r *resolver) dependency(e *expr) Dependency {
	var d Dependency
	var req []string
	for _, a := range e.args {
		switch a.label {
		case "url", "path", "id":
			d.Location = r.str(a.val)
		case "name":
		default:
			text := strings.TrimSpace(r.text(a.val))
			if a.label != "" {
				text = a.label + ": " + text
			}
			req = append(req, text)
		}
	}
	d.Requirement = strings.Join(req, ", ")
	return d
}

// text renders an expression's source; the parser is not kept, so the
// resolver renders from the structure it has.
func (r *resolver) text(e *expr) string {
	e = r.value(e)
	if e == nil || r.depth > 20 { // variables may refer to themselves
		return "…"
	}
	r.depth++
	defer func() { r.depth-- }()
	switch e.kind {
	case exString:
		return fmt.Sprintf("%q", e.str)
	case exIdent:
		return e.name
	case exBinary:
		return r.text(e.left) + e.op + r.text(e.right)
	case exCall:
		var parts []string
		for _, a := range e.args {
			if a.label != "" {
				parts = append(parts, a.label+": "+r.text(a.val))
			} else {
				parts = append(parts, r.text(a.val))
			}
		}
		return e.name + "(" + strings.Join(parts, ", ") + ")"
	}
	return "…"
}

// Modules returns the modules a client imports: the targets of library
// products, else every regular target.
func (m *Manifest) Modules() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range m.Products {
		if p.Kind != "library" {
			continue
		}
		for _, t := range p.Targets {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		for _, t := range m.Targets {
			if t.Kind == "target" && !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, t.Name)
			}
		}
	}
	return out
}

// Target returns the target named name.
func (m *Manifest) Target(name string) (Target, bool) {
	for _, t := range m.Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}
