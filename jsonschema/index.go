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
	child := func(kw string, c *Schema) error {
		return r.walk(c, walkPos{parent: n, kw: kw, idx: -1, res: res, d: d}, depth+1)
	}
	keyed := func(kw string, m map[string]*Schema) error {
		for k, c := range m {
			if err := r.walk(c, walkPos{parent: n, kw: kw, key: k, idx: -1, res: res, d: d}, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	list := func(kw string, l []*Schema) error {
		for i, c := range l {
			if err := r.walk(c, walkPos{parent: n, kw: kw, idx: i, res: res, d: d}, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := keyed("$defs", s.Defs); err != nil {
		return err
	}
	if err := keyed("definitions", s.Definitions); err != nil {
		return err
	}
	if d.draft == draft7 && s.Ref != "" {
		return nil // draft-07 ignores the siblings of $ref
	}
	for _, e := range []error{
		keyed("properties", s.Properties),
		keyed("patternProperties", s.PatternProperties),
		child("additionalProperties", s.AdditionalProperties),
		child("propertyNames", s.PropertyNames),
		keyed("dependentSchemas", s.DependentSchemas),
		keyed("dependencies", s.DependencySchemas),
		child("unevaluatedProperties", s.UnevaluatedProperties),
		list("prefixItems", s.PrefixItems),
		child("items", s.Items),
		list("items", s.ItemsArray),
		child("additionalItems", s.AdditionalItems),
		child("contains", s.Contains),
		child("unevaluatedItems", s.UnevaluatedItems),
		list("allOf", s.AllOf),
		list("anyOf", s.AnyOf),
		list("oneOf", s.OneOf),
		child("not", s.Not),
		child("if", s.If),
		child("then", s.Then),
		child("else", s.Else),
		child("contentSchema", s.ContentSchema),
	} {
		if e != nil {
			return e
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
