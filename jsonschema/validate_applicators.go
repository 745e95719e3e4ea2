package jsonschema

// applicators applies allOf, anyOf, oneOf, not and if/then/else.
func (v *validator) applicators(n *node, i uint32, ev []uint64) bool {
	ok := true
	for k, s := range n.allOf {
		v.kpath = append(v.kpath, kseg{kw: "allOf", idx: int32(k)})
		r := v.validate(s, i, ev)
		v.kpath = v.kpath[:len(v.kpath)-1]
		if !r {
			if v.abort() {
				return false
			}
			ok = false
		}
	}
	if n.anyOf != nil && !v.anyOf(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	if n.oneOf != nil && !v.oneOf(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	if n.not != nil {
		v.kpath = append(v.kpath, kseg{kw: "not", idx: -1})
		v.quiet++
		r := v.validate(n.not, i, nil)
		v.quiet--
		v.kpath = v.kpath[:len(v.kpath)-1]
		if v.stop {
			return false
		}
		if r {
			if v.quiet > 0 || !v.report(n, i, "not", v.msg().s(`must not match the schema in "not"`)) {
				return false
			}
			ok = false
		}
	}
	if n.ifn != nil && !v.ifThenElse(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	return ok
}

// branch applies subschema s of keyword kw (index k) to node i quietly. If
// ev is not nil, the members s evaluates are added to it when s matches.
func (v *validator) branch(s *node, kw string, k int, i uint32, ev []uint64) bool {
	top := v.evTop
	var sub []uint64
	if ev != nil {
		sub = v.newEv(i)
	}
	v.kpath = append(v.kpath, kseg{kw: kw, idx: int32(k)})
	v.quiet++
	r := v.validate(s, i, sub)
	v.quiet--
	v.kpath = v.kpath[:len(v.kpath)-1]
	if r && ev != nil {
		for w := range sub {
			ev[w] |= sub[w]
		}
	}
	v.evTop = top
	return r
}

func (v *validator) anyOf(n *node, i uint32, ev []uint64) bool {
	matched := false
	for k, s := range n.anyOf {
		if v.branch(s, "anyOf", k, i, ev) {
			matched = true
			if ev == nil {
				break // no annotations to collect from the other branches
			}
		}
		if v.stop {
			return false
		}
	}
	if !matched {
		if v.quiet > 0 || !v.report(n, i, "anyOf", v.msg().s("must match at least one of the anyOf schemas")) {
			return false
		}
		return false
	}
	return true
}

func (v *validator) oneOf(n *node, i uint32, ev []uint64) bool {
	var first, second = -1, -1
	for k, s := range n.oneOf {
		if v.branch(s, "oneOf", k, i, ev) {
			if first < 0 {
				first = k
			} else {
				second = k
				break
			}
		}
		if v.stop {
			return false
		}
	}
	switch {
	case first < 0:
		if v.quiet == 0 {
			v.report(n, i, "oneOf", v.msg().s("must match exactly one of the oneOf schemas (matched none)"))
		}
		return false
	case second >= 0:
		if v.quiet == 0 {
			v.report(n, i, "oneOf", v.msg().s("must match exactly one of the oneOf schemas (matched ").d(first).s(" and ").d(second).s(")"))
		}
		return false
	}
	return true
}

func (v *validator) ifThenElse(n *node, i uint32, ev []uint64) bool {
	top := v.evTop
	var sub []uint64
	if ev != nil {
		sub = v.newEv(i)
	}
	v.kpath = append(v.kpath, kseg{kw: "if", idx: -1})
	v.quiet++
	r := v.validate(n.ifn, i, sub)
	v.quiet--
	v.kpath = v.kpath[:len(v.kpath)-1]
	if r && ev != nil {
		for w := range sub {
			ev[w] |= sub[w]
		}
	}
	v.evTop = top
	if v.stop {
		return false
	}
	next, kw := n.then, "then"
	if !r {
		next, kw = n.elseN, "else"
	}
	if next == nil {
		return true
	}
	v.kpath = append(v.kpath, kseg{kw: kw, idx: -1})
	ok := v.validate(next, i, ev)
	v.kpath = v.kpath[:len(v.kpath)-1]
	return ok
}

// dynamicRef applies a $dynamicRef: its static target, or, for a dynamic
// reference, the outermost schema in the dynamic scope with the anchor.
func (v *validator) dynamicRef(n *node, i uint32, ev []uint64) bool {
	d := n.dynRef
	target := d.static
	if d.dynamic {
		for _, res := range v.scope {
			if a := res.dynAnchors[d.anchor]; a != nil {
				target = a
				break
			}
		}
	}
	v.kpath = append(v.kpath, kseg{kw: "$dynamicRef", idx: -1})
	r := v.validate(target, i, ev)
	v.kpath = v.kpath[:len(v.kpath)-1]
	return r
}
