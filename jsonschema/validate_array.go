package jsonschema

// array applies the array keywords to array node i.
func (v *validator) array(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	ok := true
	count := int(t.nodes[i].n)
	if n.minItems >= 0 && count < n.minItems {
		if v.quiet > 0 || !v.report(n, i, "minItems", v.msg().s("must have at least ").count(n.minItems, "item").s(" (got ").d(count).s(")")) {
			return false
		}
		ok = false
	}
	if n.maxItems >= 0 && count > n.maxItems {
		if v.quiet > 0 || !v.report(n, i, "maxItems", v.msg().s("must have at most ").count(n.maxItems, "item").s(" (got ").d(count).s(")")) {
			return false
		}
		ok = false
	}
	if n.uniqueItems && count > 1 {
		if a, b, dup := v.duplicateItems(i); dup {
			if v.quiet > 0 || !v.report(n, i, "uniqueItems", v.msg().s("items must be unique (items ").d(a).s(" and ").d(b).s(" are equal)")) {
				return false
			}
			ok = false
		}
	}
	if n.prefix != nil || n.items != nil {
		if !v.items(n, i, ev) {
			if v.abort() {
				return false
			}
			ok = false
		}
	}
	if n.contains != nil && !v.contains(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	return ok
}

// items applies prefixItems and items (or draft-07's items array and
// additionalItems).
func (v *validator) items(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	ok := true
	e := i + 1
	end := t.nodes[i].next
	for idx := 0; e < end; idx++ {
		var s *node
		seg := kseg{idx: -1}
		if idx < len(n.prefix) {
			s, seg.kw, seg.idx = n.prefix[idx], n.prefixKw, int32(idx)
		} else if n.items != nil {
			s, seg.kw = n.items, n.itemsKw
		} else {
			break
		}
		setBit(ev, idx)
		if s.always <= 0 {
			v.ipath = append(v.ipath, -int64(idx)-1)
			v.kpath = append(v.kpath, seg)
			r := v.validate(s, e, nil)
			v.kpath = v.kpath[:len(v.kpath)-1]
			v.ipath = v.ipath[:len(v.ipath)-1]
			if !r {
				if v.abort() {
					return false
				}
				ok = false
			}
		}
		e = t.nodes[e].next
	}
	return ok
}

// contains applies contains, minContains and maxContains.
func (v *validator) contains(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	matches := 0
	e := i + 1
	end := t.nodes[i].next
	v.kpath = append(v.kpath, kseg{kw: "contains", idx: -1})
	for idx := 0; e < end; idx++ {
		v.quiet++
		r := v.validate(n.contains, e, nil)
		v.quiet--
		if v.stop {
			v.kpath = v.kpath[:len(v.kpath)-1]
			return false
		}
		if r {
			matches++
			setBit(ev, idx)
			if ev == nil && n.maxContains < 0 && matches >= n.minContains {
				break
			}
		}
		e = t.nodes[e].next
	}
	v.kpath = v.kpath[:len(v.kpath)-1]
	ok := true
	if matches < n.minContains {
		kw := "contains"
		if n.schema.MinContains != nil {
			kw = "minContains"
		}
		if v.quiet > 0 || !v.report(n, i, kw, v.msg().s("must contain at least ").count(n.minContains, "item").s(" matching the contains schema (found ").d(matches).s(")")) {
			return false
		}
		ok = false
	}
	if n.maxContains >= 0 && matches > n.maxContains {
		if v.quiet > 0 || !v.report(n, i, "maxContains", v.msg().s("must contain at most ").count(n.maxContains, "item").s(" matching the contains schema (found ").d(matches).s(")")) {
			return false
		}
		ok = false
	}
	return ok
}

// unevaluatedItems applies unevaluatedItems to the elements of array i that
// no other keyword evaluated.
func (v *validator) unevaluatedItems(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	ok := true
	e := i + 1
	end := t.nodes[i].next
	for idx := 0; e < end; idx++ {
		if !hasBit(ev, idx) {
			v.ipath = append(v.ipath, -int64(idx)-1)
			v.kpath = append(v.kpath, kseg{kw: "unevaluatedItems", idx: -1})
			r := v.validate(n.unevalItems, e, nil)
			v.kpath = v.kpath[:len(v.kpath)-1]
			v.ipath = v.ipath[:len(v.ipath)-1]
			if !r {
				if v.abort() {
					return false
				}
				ok = false
			}
			setBit(ev, idx)
		}
		e = t.nodes[e].next
	}
	return ok
}
