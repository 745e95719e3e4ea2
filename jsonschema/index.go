package jsonschema

import (
	"fmt"
)

// walkPos is where a schema sits: its parent, the keyword (and map key or
// array index) leading to it, its resource and dialect.
type walkPos struct {
	parent *node
	kw     string
	key    string
	idx    int
	res    *resource
	d      *dialect
}

// walk indexes s and its subschemas: it creates their nodes, and records
// schema resources ($id) and anchors. Schemas inside unknown keywords,
// enum, const and examples are not schemas and are not indexed.
func (r *resolver) walk(s *Schema, pos walkPos, depth int) error {
	if s == nil {
		return nil
	}
	if _, ok := r.nodes[s]; ok {
		return nil // the same *Schema in two places, or a pointer cycle
	}
	if depth > maxSchemaDepth {
		return fmt.Errorf("jsonschema: schema nested deeper than %d", maxSchemaDepth)
	}
	n := &node{schema: s, parent: pos.parent, kw: pos.kw, key: pos.key, idx: int32(pos.idx), res: pos.res, dialect: pos.d}
	r.nodes[s] = n
	if s.boolean == boolFalse || (s.boolean == boolTrue && isEmptyTrue(s)) {
		return nil
	}
	d := pos.d
	if s.ID != "" && !(d.draft == draft7 && s.Ref != "") {
		if err := r.enterResource(n, s); err != nil {
			return err
		}
		d = n.dialect
	}
	res := n.res
	if d.draft >= draft2019 {
		if s.Anchor != "" {
			if err := r.addAnchor(res, s.Anchor, n); err != nil {
				return err
			}
		}
		if s.DynamicAnchor != "" && d.draft == draft2020 {
			if err := r.addAnchor(res, s.DynamicAnchor, n); err != nil {
				return err
			}
			if res.dynAnchors == nil {
				res.dynAnchors = make(map[string]*node)
			}
			res.dynAnchors[s.DynamicAnchor] = n
		}
	}
	return r.walkChildren(s, walkPos{parent: n, idx: -1, res: res, d: d}, depth)
}

// walkChildren walks the subschemas of s, whose node is pos.parent.
func (r *resolver) walkChildren(s *Schema, pos walkPos, depth int) error {
	d := pos.d
	if err := r.walkMap(s.Defs, "$defs", pos, depth); err != nil {
		return err
	}
	if err := r.walkMap(s.Definitions, "definitions", pos, depth); err != nil {
		return err
	}
	if (d.draft == draft7 && s.Ref != "") || !hasSubschemas(s) {
		return nil // draft-07 ignores the siblings of $ref
	}
	for _, m := range [...]struct {
		kw string
		m  map[string]*Schema
	}{
		{"properties", s.Properties}, {"patternProperties", s.PatternProperties},
		{"dependentSchemas", s.DependentSchemas}, {"dependencies", s.DependencySchemas},
	} {
		if err := r.walkMap(m.m, m.kw, pos, depth); err != nil {
			return err
		}
	}
	for _, l := range [...]struct {
		kw string
		l  []*Schema
	}{
		{"prefixItems", s.PrefixItems}, {"items", s.ItemsArray}, {"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf},
	} {
		for i, c := range l.l {
			if c != nil {
				p := pos
				p.kw, p.idx = l.kw, i
				if err := r.walk(c, p, depth+1); err != nil {
					return err
				}
			}
		}
	}
	for _, c := range [...]struct {
		kw string
		s  *Schema
	}{
		{"additionalProperties", s.AdditionalProperties}, {"propertyNames", s.PropertyNames},
		{"unevaluatedProperties", s.UnevaluatedProperties}, {"items", s.Items},
		{"additionalItems", s.AdditionalItems}, {"contains", s.Contains},
		{"unevaluatedItems", s.UnevaluatedItems}, {"not", s.Not}, {"if", s.If}, {"then", s.Then},
		{"else", s.Else}, {"contentSchema", s.ContentSchema},
	} {
		if c.s != nil {
			p := pos
			p.kw = c.kw
			if err := r.walk(c.s, p, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// walkMap walks the schemas of a keyword whose value is an object of
// schemas.
func (r *resolver) walkMap(m map[string]*Schema, kw string, pos walkPos, depth int) error {
	pos.kw = kw
	for k, c := range m {
		if c == nil {
			continue
		}
		pos.key = k
		if err := r.walk(c, pos, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// enterResource makes node n, whose schema has an $id, the root of a new
// schema resource.
func (r *resolver) enterResource(n *node, s *Schema) error {
	if s.Schema != "" && n.parent != nil {
		d, err := r.dialectOf(s.Schema)
		if err != nil {
			return err
		}
		n.dialect = d
	}
	d := n.dialect
	doc, frag, err := resolveURI(n.res.uri, s.ID)
	if err != nil {
		return err
	}
	if frag != "" && d.draft >= draft2019 {
		return fmt.Errorf("jsonschema: $id %q must not have a fragment", s.ID)
	}
	if doc != "" && doc != n.res.uri {
		if prev, dup := r.resources[doc]; dup && prev.root != nil && prev.root.schema != s {
			return fmt.Errorf("jsonschema: two schemas have $id %q", doc)
		}
		res := &resource{uri: doc, root: n, dialect: d}
		r.resources[doc] = res
		n.res = res
	}
	if frag != "" { // draft-07 "$id": "#name" is a plain-name anchor
		return r.addAnchor(n.res, frag, n)
	}
	return nil
}

func (r *resolver) addAnchor(res *resource, name string, n *node) error {
	key := res.uri + "#" + name
	if prev, dup := r.anchors[key]; dup && prev != n {
		return fmt.Errorf("jsonschema: anchor %q defined twice in %s", name, res.uri)
	}
	r.anchors[key] = n
	return nil
}

// isEmptyTrue reports whether a True() schema has no keywords.
func isEmptyTrue(s *Schema) bool { return !s.hasKeywords() }

// absLocation returns the absolute URI of n: its resource URI and pointer.
func (n *node) absLocation() string {
	return string(n.appendLocation(append([]byte(n.res.uri), '#')))
}

// hasSubschemas reports whether s has subschemas other than definitions.
func hasSubschemas(s *Schema) bool {
	return s.Properties != nil || s.PatternProperties != nil || s.DependentSchemas != nil ||
		s.DependencySchemas != nil || s.PrefixItems != nil || s.ItemsArray != nil || s.AllOf != nil ||
		s.AnyOf != nil || s.OneOf != nil || s.AdditionalProperties != nil || s.PropertyNames != nil ||
		s.UnevaluatedProperties != nil || s.Items != nil || s.AdditionalItems != nil || s.Contains != nil ||
		s.UnevaluatedItems != nil || s.Not != nil || s.If != nil || s.Then != nil || s.Else != nil ||
		s.ContentSchema != nil
}
