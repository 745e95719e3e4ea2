package rust

import (
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
)

const maxMembersShown = 40

// fieldLine renders one named field (or a tuple field when name is "")
// with the first sentence of its docs as a comment.
func (w *walker) fieldLine(id, indent string, named bool) (string, bool) {
	f := w.item(id)
	if f == nil {
		return "", false
	}
	tag, ty := f.variant()
	if tag != "struct_field" {
		return "", false
	}
	vis := ""
	if f.public() {
		vis = "pub "
	}
	line := indent + vis + typeString(ty)
	if named {
		line = indent + vis + f.name() + ": " + typeString(ty)
	}
	if doc := render.FirstSentence(f.docs()); doc != "" && named {
		line = indent + "/// " + doc + "\n" + line
	}
	return line, true
}

// structSignature renders a struct or union with its visible fields.
func (w *walker) structSignature(tag, name string, p any) string {
	g := obj(p, "generics")
	head := "pub " + tag + " " + name + genericsString(g)
	kind, kp := variant(obj(p, "kind"))
	if kind == "" { // before format 26: struct_type + fields
		kind, kp = str(obj(p, "struct_type")), map[string]any{"fields": obj(p, "fields"), "has_stripped_fields": first(p, "fields_stripped", "has_stripped_fields")}
		if tag == "union" {
			kind = "plain"
		}
	}
	switch kind {
	case "unit":
		return head + whereString(g) + ";"
	case "tuple":
		var parts []string
		for _, f := range arr(kp) {
			if line, ok := w.fieldLine(str(f), "", false); ok {
				parts = append(parts, line)
			} else {
				parts = append(parts, "_")
			}
		}
		return head + "(" + strings.Join(parts, ", ") + ")" + whereString(g) + ";"
	}
	fields := arr(obj(kp, "fields"))
	stripped := truthy(first(kp, "has_stripped_fields", "fields_stripped"))
	var b strings.Builder
	b.WriteString(head + whereString(g) + " {\n")
	shown := 0
	for _, f := range fields {
		if shown == maxMembersShown {
			b.WriteString("    // … more fields\n")
			break
		}
		if line, ok := w.fieldLine(str(f), "    ", true); ok {
			b.WriteString(line + ",\n")
			shown++
		}
	}
	if stripped {
		b.WriteString("    /* private fields */\n")
	}
	b.WriteString("}")
	return b.String()
}

// enumSignature renders an enum with its variants.
func (w *walker) enumSignature(name string, p any) string {
	g := obj(p, "generics")
	var b strings.Builder
	b.WriteString("pub enum " + name + genericsString(g) + whereString(g) + " {\n")
	for i, vid := range arr(obj(p, "variants")) {
		if i == maxMembersShown {
			b.WriteString("    // … more variants\n")
			break
		}
		v := w.item(str(vid))
		if v == nil {
			continue
		}
		_, vp := v.variant()
		if doc := render.FirstSentence(v.docs()); doc != "" {
			b.WriteString("    /// " + doc + "\n")
		}
		b.WriteString("    " + v.name() + w.variantShape(vp) + ",\n")
	}
	if truthy(first(p, "has_stripped_variants", "variants_stripped")) {
		b.WriteString("    // some variants omitted\n")
	}
	b.WriteString("}")
	return b.String()
}

func (w *walker) variantShape(vp any) string {
	kind, kp := variant(first(vp, "kind"))
	if kind == "" {
		kind, kp = variant(vp) // before format 26 the variant itself was the kind
	}
	suffix := ""
	if d := obj(vp, "discriminant"); d != nil {
		suffix = " = " + str(first(d, "expr", "value"))
	}
	switch kind {
	case "tuple":
		var parts []string
		for _, f := range arr(kp) {
			if line, ok := w.fieldLine(str(f), "", false); ok {
				parts = append(parts, strings.TrimPrefix(line, "pub "))
			} else if f != nil && str(f) == "" {
				parts = append(parts, typeString(f)) // old formats listed types
			} else {
				parts = append(parts, "_")
			}
		}
		return "(" + strings.Join(parts, ", ") + ")" + suffix
	case "struct":
		var parts []string
		fields := arr(first(kp, "fields"))
		if fields == nil {
			fields = arr(kp)
		}
		for _, f := range fields {
			if fi := w.item(str(f)); fi != nil {
				_, ty := fi.variant()
				parts = append(parts, fi.name()+": "+typeString(ty))
			}
		}
		return " { " + strings.Join(parts, ", ") + " }" + suffix
	}
	return suffix
}

// traitSignature renders a trait with its associated items; provided
// methods show an elided body.
func (w *walker) traitSignature(name string, p any) string {
	g := obj(p, "generics")
	head := "pub "
	if truthy(first(p, "is_unsafe", "unsafe")) {
		head += "unsafe "
	}
	if truthy(first(p, "is_auto", "auto")) {
		head += "auto "
	}
	head += "trait " + name + genericsString(g)
	if b := boundsString(arr(obj(p, "bounds"))); b != "" {
		head += ": " + b
	}
	var b strings.Builder
	b.WriteString(head + whereString(g) + " {\n")
	for i, id := range arr(obj(p, "items")) {
		if i == maxMembersShown {
			b.WriteString("    // … more items\n")
			break
		}
		it := w.item(str(id))
		if it == nil {
			continue
		}
		if line := assocLine(it); line != "" {
			b.WriteString("    " + line + "\n")
		}
	}
	b.WriteString("}")
	return b.String()
}

// assocLine renders an associated item of a trait or impl in one line.
func assocLine(it *rawItem) string {
	tag, p := it.variant()
	switch tag {
	case "function":
		s := fnSignature("", it.name(), p)
		if truthy(first(p, "has_body")) {
			return s + " { … }"
		}
		return s + ";"
	case "assoc_type":
		s := "type " + it.name() + genericsString(obj(p, "generics"))
		if b := boundsString(arr(obj(p, "bounds"))); b != "" {
			s += ": " + b
		}
		if d := first(p, "type", "default"); d != nil {
			s += " = " + typeString(d)
		}
		return s + ";"
	case "assoc_const":
		s := "const " + it.name() + ": " + typeString(obj(p, "type"))
		if v := str(first(p, "value", "default")); v != "" {
			s += " = " + v
		}
		return s + ";"
	}
	return ""
}

// traitMembers records a trait's methods as symbols of their own.
func (w *walker) traitMembers(owner string, p any) {
	for _, id := range arr(obj(p, "items")) {
		it := w.item(str(id))
		if it == nil {
			continue
		}
		if tag, fp := it.variant(); tag == "function" {
			sig := fnSignature("", it.name(), fp)
			if truthy(obj(fp, "has_body")) {
				sig += " { … }"
			}
			w.add(model.Symbol{Name: owner + "::" + it.name(), Kind: "method", Signature: sig, Doc: it.docs(), File: spanFile(it)})
		}
	}
}

func spanFile(it *rawItem) string {
	if it.Span != nil {
		return it.Span.Filename
	}
	return ""
}

// impls records the type symbol, noting the traits it implements, then its
// public inherent methods and associated constants.
func (w *walker) impls(owner string, ids []any, sym *model.Symbol) {
	var traits []string
	var members []model.Symbol
	for _, id := range ids {
		impl := w.item(str(id))
		if impl == nil {
			continue
		}
		tag, p := impl.variant()
		if tag != "impl" || truthy(first(p, "is_synthetic", "synthetic")) || obj(p, "blanket_impl") != nil {
			continue
		}
		if tr := obj(p, "trait"); tr != nil {
			name := pathString(tr)
			if truthy(first(p, "is_negative", "negative")) {
				name = "!" + name
			}
			traits = append(traits, name)
			continue
		}
		for _, mid := range arr(obj(p, "items")) {
			m := w.item(str(mid))
			if m == nil || !m.public() {
				continue
			}
			mt, mp := m.variant()
			var sig string
			switch mt {
			case "function":
				sig = fnSignature("pub ", m.name(), mp)
			case "assoc_const":
				sig = "pub " + assocLine(m)
			default:
				continue
			}
			members = append(members, model.Symbol{Name: owner + "::" + m.name(), Kind: "method", Signature: sig, Doc: m.docs(), File: spanFile(m)})
		}
	}
	if len(traits) > 0 {
		sort.Strings(traits)
		traits = compact(traits)
		sym.Doc = strings.TrimSpace(sym.Doc + "\n\nImplements: `" + strings.Join(traits, "`, `") + "`.")
	}
	w.add(*sym)
	for _, m := range members {
		w.add(m)
	}
}

func compact(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
