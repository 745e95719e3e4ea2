package jsonschema

import (
	"encoding/json"
	"fmt"
	"slices"
)

// validateDefaults checks that the default of every property schema
// validates against that schema.
func (r *resolver) validateDefaults(rs *Resolved) error {
	for _, n := range r.nodes {
		if n.state == 0 || n.dflt == nil || n.parent == nil || n.kw != "properties" {
			continue
		}
		sub := &Resolved{root: n, schema: n.schema, maxErrors: rs.maxErrors, trackScope: rs.trackScope}
		if err := sub.ValidateJSON(n.dflt); err != nil {
			return fmt.Errorf("jsonschema: default of %s is invalid: %w", n.absLocation(), err)
		}
	}
	return nil
}

// maxDefaultsDepth bounds how deeply ApplyDefaults follows nested objects
// and in-place applicators.
const maxDefaultsDepth = 256

// ApplyDefaults adds to the object *m every property that is missing and
// whose schema (in properties, also through $ref and allOf) has a default,
// and does the same inside nested objects that are present. Each default
// is a fresh copy, decoded as encoding/json decodes into any. A nil *m is
// replaced by a new map if there is anything to add. ApplyDefaults does not
// validate; call Validate afterwards if needed.
func (rs *Resolved) ApplyDefaults(m *map[string]any) error {
	if m == nil {
		return fmt.Errorf("jsonschema: ApplyDefaults of a nil pointer")
	}
	return applyDefaults(rs.root, m, 0)
}

func applyDefaults(n *node, m *map[string]any, depth int) error {
	if depth > maxDefaultsDepth {
		return nil
	}
	for _, p := range n.properties() {
		v, present := (*m)[p.name]
		if !present {
			raw := defaultOf(p.n, 0)
			if raw == nil {
				continue
			}
			var val any
			if err := json.Unmarshal(raw, &val); err != nil {
				return fmt.Errorf("jsonschema: default of %q: %w", p.name, err)
			}
			if *m == nil {
				*m = make(map[string]any)
			}
			(*m)[p.name] = val
			continue
		}
		if sub, ok := v.(map[string]any); ok {
			if err := applyDefaults(p.n, &sub, depth+1); err != nil {
				return err
			}
		}
	}
	for _, c := range inPlace(n) {
		if err := applyDefaults(c, m, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// inPlace lists the subschemas that always apply to the same instance.
func inPlace(n *node) []*node {
	var out []*node
	if n.ref != nil {
		out = append(out, n.ref)
	}
	if n.dynRef != nil {
		out = append(out, n.dynRef.static)
	}
	return append(out, n.allOfList()...)
}

// properties returns the compiled properties of n, if any.
func (n *node) properties() []propNode {
	if n.objectKw == nil {
		return nil
	}
	return n.props
}

// allOfList returns the allOf subschemas of n, if any.
func (n *node) allOfList() []*node {
	if n.applicatorKw == nil {
		return nil
	}
	return n.allOf
}

// defaultOf returns the default of schema n, looking through $ref.
func defaultOf(n *node, depth int) []byte {
	for ; n != nil && depth < maxDefaultsDepth; depth++ {
		if n.dflt != nil {
			return n.dflt
		}
		n = n.ref
	}
	return nil
}

// ApplyDefaultsJSON is ApplyDefaults for an object given as JSON text. It
// returns data itself, without allocating, when nothing is missing, and
// otherwise a new slice with the defaults inserted before the closing brace
// of each object concerned. The input must be strict JSON (see ValidateJSON).
func (rs *Resolved) ApplyDefaultsJSON(data []byte) ([]byte, error) {
	v := rs.getValidator()
	defer putValidator(v)
	v.t.src = data
	if err := v.p.parseInto(data, false); err != nil {
		return nil, err
	}
	ins := v.inserts[:0]
	ins = collectDefaults(&v.t, rs.root, 0, ins, 0)
	v.inserts = ins
	if len(ins) == 0 {
		return data, nil
	}
	// Insert in the order in which the objects close; the first default
	// found for a name wins.
	t := &v.t
	slices.SortStableFunc(ins, func(a, b insertion) int {
		return int(t.nodes[a.obj].off) - int(t.nodes[b.obj].off)
	})
	ins = slices.CompactFunc(ins, func(a, b insertion) bool { return a.obj == b.obj && a.name == b.name })
	return spliceDefaults(t, data, ins), nil
}

// insertion is a default to add to the object at tape node obj.
type insertion struct {
	obj  uint32
	name string
	raw  []byte
}

func collectDefaults(t *tape, n *node, i uint32, ins []insertion, depth int) []insertion {
	if depth > maxDefaultsDepth || t.nodes[i].kind != kindObject {
		return ins
	}
	for _, p := range n.properties() {
		if val := t.lookup(i, p.name); val != 0 {
			ins = collectDefaults(t, p.n, val, ins, depth+1)
			continue
		}
		if raw := defaultOf(p.n, 0); raw != nil {
			ins = append(ins, insertion{i, p.name, raw})
		}
	}
	if n.ref != nil {
		ins = collectDefaults(t, n.ref, i, ins, depth+1)
	}
	if n.dynRef != nil {
		ins = collectDefaults(t, n.dynRef.static, i, ins, depth+1)
	}
	for _, c := range n.allOfList() {
		ins = collectDefaults(t, c, i, ins, depth+1)
	}
	return ins
}

// spliceDefaults copies data, inserting the members in ins.
func spliceDefaults(t *tape, data []byte, ins []insertion) []byte {
	extra := 0
	for _, in := range ins {
		extra += len(in.name) + len(in.raw) + 8
	}
	out := make([]byte, 0, len(data)+extra)
	// Objects close in increasing offset order of their '}'; insert in that
	// order. Insertions for one object are adjacent in ins.
	pos := 0
	for k := 0; k < len(ins); {
		obj := ins[k].obj
		end := int(t.nodes[obj].off) // offset of the object's '}'
		out = append(out, data[pos:end]...)
		members := t.nodes[obj].n
		for ; k < len(ins) && ins[k].obj == obj; k++ {
			if members > 0 {
				out = append(out, ',')
			}
			members++
			out = appendQuoted(out, ins[k].name)
			out = append(out, ':')
			out = append(out, ins[k].raw...)
		}
		pos = end
	}
	return append(out, data[pos:]...)
}
