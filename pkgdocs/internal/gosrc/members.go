package gosrc

import (
	"go/ast"
	"go/doc"
	"go/token"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// A type's members are found as Type.Method, as pkg.go.dev and gopls name
// them: its own methods; the methods promoted to it from embedded fields
// of the same package, exported or not (go/doc computes these with
// AllMethods: go-redis's Client gets its commands from an embedded
// cmdable, bufio.ReadWriter its reads and writes from *Reader and
// *Writer); and, for an interface, the methods its declaration lists and
// those of the interfaces of the same package it embeds. Promoted and
// interface methods are found by name and listed with their type, not in
// the package's API index, where the type's declaration or its own
// methods already stand.

// methodSymbols returns the methods of t: its own first, then the
// promoted ones, each marked with where it comes from.
func (x *extractor) methodSymbols(t *doc.Type) []model.Symbol {
	var own, promoted []model.Symbol
	for _, m := range t.Methods {
		if m.Level == 0 {
			own = append(own, x.funcSymbol(m, t.Name+"."+m.Name, "method"))
			continue
		}
		var s model.Symbol
		if recv := receiver(m.Decl); recv != "" {
			s = model.Symbol{Name: t.Name + "." + m.Name, Kind: "method", Doc: x.markdown(m.Doc), File: x.fileOf(m.Decl.Pos())}
			s.Signature = "func " + recv + " " + x.methodSignature(m.Decl.Name.Name, m.Decl.Type)
		} else {
			s = x.funcSymbol(m, t.Name+"."+m.Name, "method")
		}
		s.Hidden = true
		s.Doc = joinDoc(s.Doc, "*Promoted from the embedded "+strings.TrimPrefix(m.Orig, "*")+".*")
		promoted = append(promoted, s)
	}
	return append(own, promoted...)
}

// interfaceMethods returns the methods of the interface type t, declared
// or embedded from an interface of the package (ifaces holds the method
// lists of the package's interfaces, exported or not, as written).
func (x *extractor) interfaceMethods(t *doc.Type, ifaces map[string][]*ast.Field) []model.Symbol {
	list, ok := ifaces[t.Name]
	if !ok {
		return nil
	}
	var out []model.Symbol
	seen := map[string]bool{}
	visited := map[string]bool{t.Name: true}
	var walk func(list []*ast.Field, from string)
	walk = func(list []*ast.Field, from string) {
		for _, f := range list {
			ft, isFunc := f.Type.(*ast.FuncType)
			if !isFunc {
				// An embedded interface of this package: its methods.
				if id, ok := f.Type.(*ast.Ident); ok && !visited[id.Name] {
					if embedded, ok := ifaces[id.Name]; ok {
						visited[id.Name] = true
						walk(embedded, id.Name)
					}
				}
				continue
			}
			for _, n := range f.Names {
				if !n.IsExported() || seen[n.Name] {
					continue
				}
				seen[n.Name] = true
				out = append(out, x.interfaceMethod(t.Name, n.Name, ft, f, from))
			}
		}
	}
	walk(list, "")
	return out
}

// interfaceMethod renders one method of interface iface as gopls shows it:
// func (Iface) Name(params) results.
func (x *extractor) interfaceMethod(iface, name string, ft *ast.FuncType, f *ast.Field, from string) model.Symbol {
	text := ""
	if f.Doc != nil {
		text = f.Doc.Text()
	} else if f.Comment != nil {
		text = f.Comment.Text()
	}
	d := x.markdown(text)
	if from != "" {
		d = joinDoc(d, "*From the embedded interface "+from+".*")
	}
	return model.Symbol{
		Name: iface + "." + name, Kind: "method", Signature: "func (" + iface + ") " + x.methodSignature(name, ft),
		Doc: d, File: x.fileOf(f.Pos()), Hidden: true,
	}
}

// methodSignature prints "Name(params) results" for a method of type ft,
// once per declaration: a command set embedded in many types, or an
// interface embedded in many interfaces (go-redis), is printed once.
func (x *extractor) methodSignature(name string, ft *ast.FuncType) string {
	if sig, ok := x.sigs[ft]; ok {
		return sig
	}
	decl := &ast.FuncDecl{Name: ast.NewIdent(name), Type: &ast.FuncType{Func: token.NoPos, TypeParams: ft.TypeParams, Params: ft.Params, Results: ft.Results}}
	sig := strings.TrimPrefix(x.print(decl, false), "func ")
	x.sigs[ft] = sig
	return sig
}

// receiver prints the receiver go/doc gave a promoted method, "(c
// *Client)", or "" when it is not the plain (possibly pointer) type
// name go/doc writes.
func receiver(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) != 1 {
		return ""
	}
	f := d.Recv.List[0]
	var typ string
	switch t := f.Type.(type) {
	case *ast.Ident:
		typ = t.Name
	case *ast.StarExpr:
		id, ok := t.X.(*ast.Ident)
		if !ok {
			return ""
		}
		typ = "*" + id.Name
	default:
		return ""
	}
	if len(f.Names) == 1 {
		return "(" + f.Names[0].Name + " " + typ + ")"
	}
	return "(" + typ + ")"
}

// interfaceLists returns the method lists of the interfaces files
// declare, by name. It copies each list: go/doc later filters unexported
// methods and embedded interfaces out of the declarations in place.
func interfaceLists(files []*ast.File) map[string][]*ast.Field {
	out := map[string][]*ast.Field{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					if it, ok := ts.Type.(*ast.InterfaceType); ok && it.Methods != nil {
						out[ts.Name.Name] = append([]*ast.Field(nil), it.Methods.List...)
					}
				}
			}
		}
	}
	return out
}

// joinDoc appends a paragraph to a doc comment.
func joinDoc(doc, para string) string {
	if doc == "" {
		return para
	}
	return doc + "\n\n" + para
}
