package jsonschema

import "slices"

// object applies the object keywords to object node i.
func (v *validator) object(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	ok := true
	count := int(t.nodes[i].n)
	if n.minProps >= 0 && count < n.minProps {
		if v.quiet > 0 || !v.report(n, i, "minProperties", v.msg().s("must have at least ").count(n.minProps, "property").s(" (got ").d(count).s(")")) {
			return false
		}
		ok = false
	}
	if n.maxProps >= 0 && count > n.maxProps {
		if v.quiet > 0 || !v.report(n, i, "maxProperties", v.msg().s("must have at most ").count(n.maxProps, "property").s(" (got ").d(count).s(")")) {
			return false
		}
		ok = false
	}
	memberProp, found, top := v.lookupMembers(n, i)
	defer v.popMembers(top)
	for r, name := range n.required {
		present := false
		if p := n.requiredProp(r); p >= 0 && p < 64 {
			present = found&(1<<p) != 0
		} else {
			present = t.has(i, name)
		}
		if !present {
			if v.quiet > 0 || !v.report(n, i, "required", v.msg().s("missing required property ").q(name)) {
				return false
			}
			ok = false
		}
	}
	for _, dr := range n.depRequired {
		if !t.has(i, dr.name) {
			continue
		}
		for _, req := range dr.required {
			if !t.has(i, req) {
				if v.quiet > 0 || !v.report(n, i, dr.kw, v.msg().s("property ").q(dr.name).s(" requires property ").q(req)) {
					return false
				}
				ok = false
			}
		}
	}
	if n.checks&chkMembers != 0 && !v.members(n, i, ev, memberProp) {
		if v.abort() {
			return false
		}
		ok = false
	}
	for _, ds := range n.depSchemas {
		if !t.has(i, ds.name) {
			continue
		}
		v.kpath = append(v.kpath, kseg{kw: ds.kw, key: ds.name, idx: -1})
		r := v.validate(ds.n, i, ev)
		v.kpath = v.kpath[:len(v.kpath)-1]
		if !r {
			if v.abort() {
				return false
			}
			ok = false
		}
	}
	return ok
}

// lookupMembers finds, for each member of object i, the index of its
// property in n.props (or -1), and which of the first 64 properties are
// present. The result lives on a stack in v until popMembers(top).
func (v *validator) lookupMembers(n *node, i uint32) (memberProp []int32, found uint64, top int) {
	top = len(v.pidx)
	if n.props == nil {
		return nil, 0, top
	}
	t := &v.t
	count := int(t.nodes[i].n)
	v.pidx = slices.Grow(v.pidx, count)[:top+count]
	memberProp = v.pidx[top : top+count]
	k := i + 1
	for m := 0; m < count; m++ {
		p := n.findProp(t.text(k))
		memberProp[m] = int32(p)
		if p >= 0 && p < 64 {
			found |= 1 << p
		}
		k = t.nodes[k+1].next
	}
	return memberProp, found, top
}

// popMembers releases what lookupMembers put on the stack.
func (v *validator) popMembers(top int) { v.pidx = v.pidx[:top] }

// requiredProp returns the index in n.props of the r-th required name, or
// -1.
func (n *objectKw) requiredProp(r int) int32 {
	if n.reqProp == nil {
		return -1
	}
	return n.reqProp[r]
}

// findProp returns the index in n.props of the property named key, or -1.
func (n *objectKw) findProp(key []byte) int {
	if n.propIndex != nil {
		if k, ok := n.propIndex[string(key)]; ok {
			return k
		}
		return -1
	}
	sig := propSignature(key)
	for k, s := range n.propSig {
		if s == sig && n.props[k].name == string(key) {
			return k
		}
	}
	return -1
}

// propSignature summarizes a name (length, first and last byte) so that
// most mismatches are found without comparing strings.
func propSignature[S string | []byte](name S) uint32 {
	if len(name) == 0 {
		return 0
	}
	return uint32(len(name))<<16 | uint32(name[0])<<8 | uint32(name[len(name)-1])
}

// members applies properties, patternProperties, additionalProperties and
// propertyNames to each member of object node i.
func (v *validator) members(n *node, i uint32, ev []uint64, memberProp []int32) bool {
	t := &v.t
	ok := true
	count := int(t.nodes[i].n)
	k := i + 1
	for m := 0; m < count; m++ {
		val := k + 1
		key := t.text(k)
		matched := false
		if memberProp != nil {
			if p := memberProp[m]; p >= 0 {
				matched = true
				if !v.member(n.props[p].n, k, kseg{kw: "properties", key: n.props[p].name, idx: -1}) {
					if v.abort() {
						return false
					}
					ok = false
				}
			}
		}
		for pi := range n.patProps {
			pp := &n.patProps[pi]
			if !pp.re.match(key) {
				continue
			}
			matched = true
			if !v.member(pp.n, k, kseg{kw: "patternProperties", key: pp.src, idx: -1}) {
				if v.abort() {
					return false
				}
				ok = false
			}
		}
		if !matched && n.addProps != nil {
			matched = true
			if !v.extraMember(n, n.addProps, "additionalProperties", i, k) {
				if v.abort() {
					return false
				}
				ok = false
			}
		}
		if matched {
			setBit(ev, m)
		}
		if n.propNames != nil {
			v.quiet++
			r := v.validate(n.propNames, k, nil)
			v.quiet--
			if !r && (v.quiet > 0 || v.stop || !v.report(n, i, "propertyNames", v.msg().s("invalid property name ").qb(key))) {
				return false
			}
			ok = ok && r
		}
		k = t.nodes[val].next
	}
	return ok
}

// member applies schema s to the value of the member whose key is node k.
func (v *validator) member(s *node, k uint32, seg kseg) bool {
	if s.always > 0 {
		return true
	}
	v.ipath = append(v.ipath, int64(k))
	v.kpath = append(v.kpath, seg)
	r := v.validate(s, k+1, nil)
	v.kpath = v.kpath[:len(v.kpath)-1]
	v.ipath = v.ipath[:len(v.ipath)-1]
	return r
}

// extraMember applies additionalProperties or unevaluatedProperties (kw,
// schema s) to the member with key node k of object i. A false schema is
// reported at the object as an unexpected property.
func (v *validator) extraMember(n, s *node, kw string, i, k uint32) bool {
	if s.always < 0 {
		if v.quiet == 0 {
			v.report(n, i, kw, v.msg().s("unexpected property ").qb(v.t.text(k)))
		}
		return false
	}
	return v.member(s, k, kseg{kw: kw, idx: -1})
}

// unevaluatedProps applies unevaluatedProperties to the members of object i
// that no other keyword evaluated (their bit in ev is clear).
func (v *validator) unevaluatedProps(n *node, i uint32, ev []uint64) bool {
	t := &v.t
	ok := true
	count := int(t.nodes[i].n)
	k := i + 1
	for m := 0; m < count; m++ {
		if !hasBit(ev, m) {
			if !v.extraMember(n, n.unevalProps, "unevaluatedProperties", i, k) {
				if v.abort() {
					return false
				}
				ok = false
			}
			setBit(ev, m)
		}
		k = t.nodes[k+1].next
	}
	return ok
}
