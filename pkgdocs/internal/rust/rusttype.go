package rust

import (
	"encoding/json"
	"strings"
)

// The rustdoc JSON values below are decoded generically (map[string]any,
// []any, string, json.Number) so that one renderer reads every supported
// format_version: field names that changed over time (sig/decl,
// is_mutable/mutable, constraints/bindings, ...) are all accepted.

// obj returns v[key] when v is an object.
func obj(v any, key string) any {
	if m, ok := v.(map[string]any); ok {
		return m[key]
	}
	return nil
}

// first returns the first present value among keys of object v.
func first(v any, keys ...string) any {
	for _, k := range keys {
		if x := obj(v, k); x != nil {
			return x
		}
	}
	return nil
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}

func arr(v any) []any {
	a, _ := v.([]any)
	return a
}

func truthy(v any) bool {
	b, _ := v.(bool)
	return b
}

// variant splits an externally tagged serde enum value into its tag and
// payload: "infer" -> ("infer", nil); {"generic": "T"} -> ("generic", "T").
func variant(v any) (string, any) {
	switch v := v.(type) {
	case string:
		return v, nil
	case map[string]any:
		if len(v) == 1 {
			for k, x := range v {
				return k, x
			}
		}
	}
	return "", nil
}

// typeString renders a rustdoc Type.
func typeString(t any) string {
	tag, p := variant(t)
	switch tag {
	case "resolved_path":
		return pathString(p)
	case "dyn_trait":
		var parts []string
		for _, pt := range arr(obj(p, "traits")) {
			parts = append(parts, hrtb(obj(pt, "generic_params"))+pathString(obj(pt, "trait")))
		}
		if lt := str(obj(p, "lifetime")); lt != "" {
			parts = append(parts, lt)
		}
		return "dyn " + strings.Join(parts, " + ")
	case "generic", "primitive":
		return str(p)
	case "function_pointer":
		return hrtb(obj(p, "generic_params")) + headerString(obj(p, "header")) + "fn" + sigString(first(p, "sig", "decl"))
	case "tuple":
		var parts []string
		for _, x := range arr(p) {
			parts = append(parts, typeString(x))
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case "slice":
		return "[" + typeString(p) + "]"
	case "array":
		return "[" + typeString(obj(p, "type")) + "; " + str(obj(p, "len")) + "]"
	case "pat":
		return typeString(obj(p, "type"))
	case "impl_trait":
		return "impl " + boundsString(arr(p))
	case "infer":
		return "_"
	case "raw_pointer":
		if truthy(first(p, "is_mutable", "mutable")) {
			return "*mut " + typeString(obj(p, "type"))
		}
		return "*const " + typeString(obj(p, "type"))
	case "borrowed_ref":
		s := "&"
		if lt := str(obj(p, "lifetime")); lt != "" {
			s += lt + " "
		}
		if truthy(first(p, "is_mutable", "mutable")) {
			s += "mut "
		}
		return s + typeString(obj(p, "type"))
	case "qualified_path":
		self := typeString(obj(p, "self_type"))
		name := str(obj(p, "name")) + argsString(obj(p, "args"))
		if tr := obj(p, "trait"); tr != nil && pathString(tr) != "" {
			return "<" + self + " as " + pathString(tr) + ">::" + name
		}
		return self + "::" + name
	}
	return "_"
}

// pathString renders a Path: its path (or, before format 40, name) and
// generic arguments.
func pathString(p any) string {
	name := str(first(p, "path", "name"))
	return name + argsString(obj(p, "args"))
}

// argsString renders GenericArgs: <'a, T, Item = U> or (A, B) -> C.
func argsString(a any) string {
	tag, p := variant(a)
	switch tag {
	case "angle_bracketed":
		var parts []string
		for _, g := range arr(obj(p, "args")) {
			gt, gp := variant(g)
			switch gt {
			case "lifetime":
				parts = append(parts, str(gp))
			case "type":
				parts = append(parts, typeString(gp))
			case "const":
				parts = append(parts, str(first(gp, "expr", "value")))
			case "infer":
				parts = append(parts, "_")
			}
		}
		for _, c := range arr(first(p, "constraints", "bindings")) {
			name := str(obj(c, "name")) + argsString(obj(c, "args"))
			bt, bp := variant(obj(c, "binding"))
			switch bt {
			case "equality":
				parts = append(parts, name+" = "+termString(bp))
			case "constraint":
				parts = append(parts, name+": "+boundsString(arr(bp)))
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return "<" + strings.Join(parts, ", ") + ">"
	case "parenthesized":
		var in []string
		for _, x := range arr(obj(p, "inputs")) {
			in = append(in, typeString(x))
		}
		s := "(" + strings.Join(in, ", ") + ")"
		if out := obj(p, "output"); out != nil {
			s += " -> " + typeString(out)
		}
		return s
	}
	return ""
}

func termString(t any) string {
	tag, p := variant(t)
	switch tag {
	case "type":
		return typeString(p)
	case "constant":
		return str(first(p, "expr", "value"))
	}
	return typeString(t)
}

func boundsString(bounds []any) string {
	var parts []string
	for _, b := range bounds {
		tag, p := variant(b)
		switch tag {
		case "trait_bound":
			prefix := ""
			switch str(obj(p, "modifier")) {
			case "maybe":
				prefix = "?"
			case "maybe_const":
				prefix = "~const "
			}
			parts = append(parts, hrtb(obj(p, "generic_params"))+prefix+pathString(obj(p, "trait")))
		case "outlives":
			parts = append(parts, str(p))
		case "use":
			var caps []string
			for _, c := range arr(p) {
				if _, cp := variant(c); cp != nil {
					caps = append(caps, str(cp))
				} else {
					caps = append(caps, str(c))
				}
			}
			parts = append(parts, "use<"+strings.Join(caps, ", ")+">")
		}
	}
	return strings.Join(parts, " + ")
}

// hrtb renders higher-ranked lifetimes: for<'a, 'b> .
func hrtb(params any) string {
	var names []string
	for _, p := range arr(params) {
		names = append(names, str(obj(p, "name")))
	}
	if len(names) == 0 {
		return ""
	}
	return "for<" + strings.Join(names, ", ") + "> "
}

// genericsString renders the parameter list <'a, T: Clone, const N: usize>;
// synthetic parameters (from impl Trait arguments) are left out.
func genericsString(g any) string {
	var parts []string
	for _, p := range arr(obj(g, "params")) {
		name := str(obj(p, "name"))
		tag, k := variant(obj(p, "kind"))
		switch tag {
		case "lifetime":
			var out []string
			for _, o := range arr(obj(k, "outlives")) {
				out = append(out, str(o))
			}
			if len(out) > 0 {
				name += ": " + strings.Join(out, " + ")
			}
		case "type":
			if truthy(first(k, "is_synthetic", "synthetic")) {
				continue
			}
			if b := boundsString(arr(obj(k, "bounds"))); b != "" {
				name += ": " + b
			}
			if d := obj(k, "default"); d != nil {
				name += " = " + typeString(d)
			}
		case "const":
			name = "const " + name + ": " + typeString(obj(k, "type"))
			if d := str(obj(k, "default")); d != "" {
				name += " = " + d
			}
		}
		parts = append(parts, name)
	}
	if len(parts) == 0 {
		return ""
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

// whereString renders a where clause, or "".
func whereString(g any) string {
	var parts []string
	for _, w := range arr(obj(g, "where_predicates")) {
		tag, p := variant(w)
		switch tag {
		case "bound_predicate":
			parts = append(parts, hrtb(obj(p, "generic_params"))+typeString(obj(p, "type"))+": "+boundsString(arr(obj(p, "bounds"))))
		case "lifetime_predicate", "region_predicate":
			var out []string
			for _, o := range arr(first(p, "outlives", "bounds")) {
				if s := str(o); s != "" {
					out = append(out, s)
				} else {
					out = append(out, boundsString([]any{o}))
				}
			}
			parts = append(parts, str(obj(p, "lifetime"))+": "+strings.Join(out, " + "))
		case "eq_predicate":
			parts = append(parts, typeString(obj(p, "lhs"))+" = "+termString(obj(p, "rhs")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " where " + strings.Join(parts, ", ")
}

// headerString renders a FunctionHeader's qualifiers: "const async unsafe
// extern \"C\" ".
func headerString(h any) string {
	var b strings.Builder
	if truthy(first(h, "is_const", "const_", "const")) {
		b.WriteString("const ")
	}
	if truthy(first(h, "is_async", "async_", "async")) {
		b.WriteString("async ")
	}
	if truthy(first(h, "is_unsafe", "unsafe_", "unsafe")) {
		b.WriteString("unsafe ")
	}
	switch abi, _ := variant(obj(h, "abi")); abi {
	case "", "Rust":
	case "Other":
		_, p := variant(obj(h, "abi"))
		b.WriteString("extern \"" + strings.Trim(str(p), `"`) + "\" ")
	default:
		b.WriteString("extern \"" + strings.ToLower(abi) + "\" ")
	}
	return b.String()
}

// sigString renders a FunctionSignature's parameters and return type:
// "(&self, key: &str) -> Option<V>".
func sigString(sig any) string {
	var params []string
	for _, in := range arr(obj(sig, "inputs")) {
		pair := arr(in)
		if len(pair) != 2 {
			continue
		}
		name, ty := str(pair[0]), pair[1]
		params = append(params, param(name, ty))
	}
	if truthy(obj(sig, "is_c_variadic")) || truthy(obj(sig, "c_variadic")) {
		params = append(params, "...")
	}
	s := "(" + strings.Join(params, ", ") + ")"
	if out := obj(sig, "output"); out != nil {
		s += " -> " + typeString(out)
	}
	return s
}

// param renders one parameter, writing self receivers the way they are
// written in source (&self, &mut self, self).
func param(name string, ty any) string {
	if name == "self" {
		tag, p := variant(ty)
		switch {
		case tag == "generic" && str(p) == "Self":
			return "self"
		case tag == "borrowed_ref":
			if t, q := variant(obj(p, "type")); t == "generic" && str(q) == "Self" {
				s := "&"
				if lt := str(obj(p, "lifetime")); lt != "" {
					s += lt + " "
				}
				if truthy(first(p, "is_mutable", "mutable")) {
					s += "mut "
				}
				return s + "self"
			}
		}
		return "self: " + typeString(ty)
	}
	if name == "" {
		name = "_"
	}
	return name + ": " + typeString(ty)
}
