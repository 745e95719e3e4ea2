package jsonschema

import "fmt"

// checkRefCycles reports an error if the compiled schema has a cycle of
// in-place applications that are always evaluated ($ref, allOf, oneOf, not,
// if): evaluating such a schema would never end. Cycles that pass through a
// property, an item or a conditional branch consume the instance or may
// stop, and are left to the evaluation depth limit.
func (r *resolver) checkRefCycles(root *node) error {
	if len(r.refs) == 0 && root.applicatorKw == nil {
		return nil
	}
	const (
		white = iota
		grey
		black
	)
	color := make(map[*node]uint8)
	var visit func(n *node, depth int) error
	visit = func(n *node, depth int) error {
		switch color[n] {
		case grey:
			return fmt.Errorf("jsonschema: %w through %s", ErrRefCycle, n.absLocation())
		case black:
			return nil
		}
		if depth > maxSchemaDepth {
			return fmt.Errorf("jsonschema: $ref chain longer than %d", maxSchemaDepth)
		}
		color[n] = grey
		next := make([]*node, 0, 4)
		if n.ref != nil {
			next = append(next, n.ref)
		}
		if n.dynRef != nil && !n.dynRef.dynamic {
			next = append(next, n.dynRef.static)
		}
		if a := n.applicatorKw; a != nil {
			next = append(next, a.allOf...)
			next = append(next, a.oneOf...)
			if a.not != nil {
				next = append(next, a.not)
			}
			if a.ifn != nil {
				next = append(next, a.ifn)
			}
		}
		for _, c := range next {
			if err := visit(c, depth+1); err != nil {
				return err
			}
		}
		color[n] = black
		return nil
	}
	if err := visit(root, 0); err != nil {
		return err
	}
	for _, n := range r.refs {
		if err := visit(n, 0); err != nil {
			return err
		}
	}
	return nil
}
