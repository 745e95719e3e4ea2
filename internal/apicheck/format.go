package main

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// apiLines returns the lines that describe the exported API of pkg, sorted,
// each prefixed with "pkg NAME, " (name is the package's path relative to
// the repository's root module path).
//
// One line per exported identifier, as the Go project's api/ files have:
//
//	pkg mcp, func NewServer(*Implementation, *ServerOptions) *Server
//	pkg mcp, type Server struct
//	pkg mcp, type ServerOptions struct, Instructions string
//	pkg mcp, method (*Server) Run(context.Context, Transport) error
//	pkg mcp, type Transport interface, Connect(context.Context) (Connection, error)
//	pkg mcp, const LatestProtocolVersion = "2026-07-28"
//	pkg mcp, var ErrConnectionClosed error
//
// Parameter names are left out, so renaming one is not an API change.
func apiLines(name string, pkg *types.Package) []string {
	w := &writer{pkg: pkg}
	var lines []string
	add := func(format string, args ...any) {
		lines = append(lines, "pkg "+name+", "+fmt.Sprintf(format, args...))
	}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			if b, ok := obj.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				add("const %s = %s", n, obj.Val().ExactString())
			} else {
				add("const %s %s = %s", n, w.typ(obj.Type()), obj.Val().ExactString())
			}
		case *types.Var:
			add("var %s %s", n, w.typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			add("func %s%s%s", n, w.typeParams(sig.TypeParams()), w.signature(sig))
		case *types.TypeName:
			for _, l := range w.typeLines(obj) {
				add("%s", l)
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// typeLines describes the type named by obj: its declaration, then its
// exported fields or interface methods, then its exported methods.
func (w *writer) typeLines(obj *types.TypeName) []string {
	name := obj.Name()
	if obj.IsAlias() {
		tparams := ""
		if a, ok := obj.Type().(*types.Alias); ok {
			tparams = w.typeParams(a.TypeParams())
			return []string{fmt.Sprintf("type %s%s = %s", name, tparams, w.typ(a.Rhs()))}
		}
		return []string{fmt.Sprintf("type %s = %s", name, w.typ(obj.Type()))}
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return []string{fmt.Sprintf("type %s %s", name, w.typ(obj.Type()))}
	}
	decl := "type " + name + w.typeParams(named.TypeParams())
	var lines []string
	switch u := named.Underlying().(type) {
	case *types.Struct:
		lines = append(lines, decl+" struct")
		for f := range u.Fields() {
			switch {
			case f.Embedded() && f.Exported():
				lines = append(lines, fmt.Sprintf("%s struct, embedded %s", decl, w.typ(f.Type())))
			case f.Exported():
				lines = append(lines, fmt.Sprintf("%s struct, %s %s", decl, f.Name(), w.typ(f.Type())))
			}
		}
	case *types.Interface:
		lines = append(lines, decl+" interface"+w.interfaceSummary(u))
		for e := range u.EmbeddedTypes() {
			lines = append(lines, fmt.Sprintf("%s interface, embedded %s", decl, w.typ(e)))
		}
		for m := range u.ExplicitMethods() {
			if m.Exported() {
				lines = append(lines, fmt.Sprintf("%s interface, %s%s", decl, m.Name(), w.signature(m.Type().(*types.Signature))))
			}
		}
	default:
		lines = append(lines, fmt.Sprintf("%s %s", decl, w.typ(u)))
	}
	for m := range named.Methods() {
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := name
		if r := sig.Recv(); r != nil {
			if _, ptr := r.Type().(*types.Pointer); ptr {
				recv = "*" + name
			}
		}
		if tps := sig.RecvTypeParams(); tps.Len() > 0 {
			var ns []string
			for tp := range tps.TypeParams() {
				ns = append(ns, tp.Obj().Name())
			}
			recv += "[" + strings.Join(ns, ", ") + "]"
		}
		lines = append(lines, fmt.Sprintf("method (%s) %s%s", recv, m.Name(), w.signature(sig)))
	}
	return lines
}

// interfaceSummary lists an interface's methods, exported and not, in
// braces: an unexported method means no other package can implement it,
// which is part of its API.
func (w *writer) interfaceSummary(u *types.Interface) string {
	var names []string
	for m := range u.ExplicitMethods() {
		if m.Exported() {
			names = append(names, m.Name())
		} else {
			names = append(names, "unexported methods")
		}
	}
	for e := range u.EmbeddedTypes() {
		names = append(names, w.typ(e))
	}
	if len(names) == 0 {
		return ""
	}
	return " { " + strings.Join(slices.Compact(names), ", ") + " }"
}

// A writer writes types as Go source would, qualified by package name
// except for the package being described, and without parameter names.
type writer struct {
	pkg *types.Package
}

func (w *writer) qualify(p *types.Package) string {
	if p == w.pkg {
		return ""
	}
	return p.Name()
}

func (w *writer) typ(t types.Type) string {
	switch t := t.(type) {
	case *types.Named:
		return w.objName(t.Obj()) + w.typeArgs(t.TypeArgs())
	case *types.Alias:
		return w.objName(t.Obj()) + w.typeArgs(t.TypeArgs())
	case *types.Pointer:
		return "*" + w.typ(t.Elem())
	case *types.Slice:
		return "[]" + w.typ(t.Elem())
	case *types.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), w.typ(t.Elem()))
	case *types.Map:
		return "map[" + w.typ(t.Key()) + "]" + w.typ(t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return "chan<- " + w.typ(t.Elem())
		case types.RecvOnly:
			return "<-chan " + w.typ(t.Elem())
		}
		return "chan " + w.typ(t.Elem())
	case *types.Signature:
		return "func" + w.signature(t)
	case *types.Struct:
		var fs []string
		for f := range t.Fields() {
			if f.Embedded() {
				fs = append(fs, w.typ(f.Type()))
			} else {
				fs = append(fs, f.Name()+" "+w.typ(f.Type()))
			}
		}
		if len(fs) == 0 {
			return "struct{}"
		}
		return "struct{ " + strings.Join(fs, "; ") + " }"
	case *types.Interface:
		return w.anonInterface(t)
	case *types.Union:
		var ts []string
		for term := range t.Terms() {
			s := w.typ(term.Type())
			if term.Tilde() {
				s = "~" + s
			}
			ts = append(ts, s)
		}
		return strings.Join(ts, " | ")
	case *types.TypeParam:
		return t.Obj().Name()
	case *types.Tuple:
		return w.tuple(t, false)
	}
	return types.TypeString(t, w.qualify)
}

func (w *writer) anonInterface(t *types.Interface) string {
	if t.NumExplicitMethods() == 0 && t.NumEmbeddeds() == 0 {
		return "interface{}"
	}
	var parts []string
	for e := range t.EmbeddedTypes() {
		parts = append(parts, w.typ(e))
	}
	for m := range t.ExplicitMethods() {
		parts = append(parts, m.Name()+w.signature(m.Type().(*types.Signature)))
	}
	return "interface{ " + strings.Join(parts, "; ") + " }"
}

func (w *writer) objName(obj *types.TypeName) string {
	if obj.Pkg() == nil { // error, comparable, any
		return obj.Name()
	}
	if q := w.qualify(obj.Pkg()); q != "" {
		return q + "." + obj.Name()
	}
	return obj.Name()
}

func (w *writer) typeArgs(l *types.TypeList) string {
	if l.Len() == 0 {
		return ""
	}
	var ts []string
	for t := range l.Types() {
		ts = append(ts, w.typ(t))
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

func (w *writer) typeParams(l *types.TypeParamList) string {
	if l.Len() == 0 {
		return ""
	}
	var ps []string
	for tp := range l.TypeParams() {
		ps = append(ps, tp.Obj().Name()+" "+w.constraint(tp.Constraint()))
	}
	return "[" + strings.Join(ps, ", ") + "]"
}

// constraint writes a type parameter's constraint: a named constraint by
// name, an implicit interface (~int | ~string) by its terms.
func (w *writer) constraint(t types.Type) string {
	if i, ok := t.(*types.Interface); ok && i.IsImplicit() && i.NumEmbeddeds() == 1 {
		return w.typ(i.EmbeddedType(0))
	}
	return w.typ(t)
}

// signature writes "(params) results" without parameter names.
func (w *writer) signature(sig *types.Signature) string {
	s := w.tuple(sig.Params(), sig.Variadic())
	switch r := sig.Results(); r.Len() {
	case 0:
	case 1:
		s += " " + w.typ(r.At(0).Type())
	default:
		s += " " + w.tuple(r, false)
	}
	return s
}

func (w *writer) tuple(t *types.Tuple, variadic bool) string {
	var ps []string
	for i := range t.Len() {
		pt := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			ps = append(ps, "..."+w.typ(pt.(*types.Slice).Elem()))
			continue
		}
		ps = append(ps, w.typ(pt))
	}
	return "(" + strings.Join(ps, ", ") + ")"
}
