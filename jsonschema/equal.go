package jsonschema

import (
	"hash/maphash"
	"math"
	"slices"
)

// valueSet holds the values of enum or const, on their own tape.
type valueSet struct {
	t     tape
	roots []uint32
	// strs is set when every value is a string, for a fast lookup.
	strs []string
	// text is the values as JSON, for error messages.
	text string
}

func newValueSet(values []any) (*valueSet, error) {
	vs := new(valueSet)
	p := parser{t: &vs.t}
	allStrings := true
	for _, v := range values {
		vs.roots = append(vs.roots, uint32(len(vs.t.nodes)))
		if err := p.fromValue(v); err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok {
			vs.strs = append(vs.strs, s)
		} else {
			allStrings = false
		}
	}
	if !allStrings {
		vs.strs = nil
	}
	var b []byte
	if len(vs.roots) == 1 {
		b = vs.t.appendJSON(nil, vs.roots[0])
	} else {
		b = append(b, '[')
		for i, r := range vs.roots {
			if i > 0 {
				b = append(b, ',')
			}
			b = vs.t.appendJSON(b, r)
		}
		b = append(b, ']')
	}
	vs.text = string(b)
	return vs, nil
}

// contains reports whether node i of t equals one of the values.
func (vs *valueSet) contains(t *tape, i uint32) bool {
	if vs.strs != nil {
		if t.nodes[i].kind != kindString {
			return false
		}
		s := t.text(i)
		for _, v := range vs.strs {
			if v == string(s) {
				return true
			}
		}
		return false
	}
	for _, r := range vs.roots {
		if equalValues(&vs.t, r, t, i) {
			return true
		}
	}
	return false
}

// equalValues reports whether node a of ta and node b of tb are equal JSON
// values: numbers by mathematical value, objects regardless of member order.
func equalValues(ta *tape, a uint32, tb *tape, b uint32) bool {
	na, nb := &ta.nodes[a], &tb.nodes[b]
	if na.kind != nb.kind {
		return false
	}
	switch na.kind {
	case kindNumber:
		return equalNumbers(ta, a, tb, b)
	case kindString:
		return string(ta.text(a)) == string(tb.text(b))
	case kindArray:
		if na.n != nb.n {
			return false
		}
		for ea, eb := a+1, b+1; ea < na.next; ea, eb = ta.nodes[ea].next, tb.nodes[eb].next {
			if !equalValues(ta, ea, tb, eb) {
				return false
			}
		}
		return true
	case kindObject:
		if na.n != nb.n {
			return false
		}
		k := a + 1
		for m := uint32(0); m < na.n; m++ {
			vb := tb.lookup(b, string(ta.text(k)))
			if vb == 0 || !equalValues(ta, k+1, tb, vb) {
				return false
			}
			k = ta.nodes[k+1].next
		}
		return true
	}
	return true // null, true, false
}

func equalNumbers(ta *tape, a uint32, tb *tape, b uint32) bool {
	na, nb := &ta.nodes[a], &tb.nodes[b]
	if na.flags&nb.flags&flagI64 != 0 {
		return na.i == nb.i
	}
	if na.f != nb.f {
		return false
	}
	// Go floats compare as float64s; literals exactly.
	if (na.flags|nb.flags)&flagNoText != 0 || (na.flags|nb.flags)&flagApprox == 0 {
		return true
	}
	return ta.rat(a).Cmp(tb.rat(b)) == 0
}

var hashSeed = maphash.MakeSeed()

// hashValue returns a hash of node i consistent with equalValues: equal
// values have equal hashes.
func (t *tape) hashValue(i uint32) uint64 {
	nd := &t.nodes[i]
	var h maphash.Hash
	h.SetSeed(hashSeed)
	switch nd.kind {
	case kindNumber:
		f := nd.f
		if f == 0 {
			f = 0 // -0 == 0
		}
		h.WriteByte(byte(kindNumber))
		var buf [8]byte
		bits := math.Float64bits(f)
		for k := range buf {
			buf[k] = byte(bits >> (8 * k))
		}
		h.Write(buf[:])
	case kindString:
		h.WriteByte(byte(kindString))
		h.Write(t.text(i))
	case kindArray:
		h.WriteByte(byte(kindArray))
		for e := i + 1; e < nd.next; e = t.nodes[e].next {
			writeUint64(&h, t.hashValue(e))
		}
	case kindObject:
		// Member order does not matter: combine member hashes with a sum.
		var sum uint64
		k := i + 1
		for m := uint32(0); m < nd.n; m++ {
			var mh maphash.Hash
			mh.SetSeed(hashSeed)
			mh.Write(t.text(k))
			writeUint64(&mh, t.hashValue(k+1))
			sum += mh.Sum64()
			k = t.nodes[k+1].next
		}
		h.WriteByte(byte(kindObject))
		writeUint64(&h, sum)
	default:
		h.WriteByte(byte(nd.kind))
	}
	return h.Sum64()
}

func writeUint64(h *maphash.Hash, v uint64) {
	var buf [8]byte
	for k := range buf {
		buf[k] = byte(v >> (8 * k))
	}
	h.Write(buf[:])
}

// uniqueHashMin is the array length from which uniqueItems hashes elements
// instead of comparing every pair.
const uniqueHashMin = 16

// duplicateItems reports whether array i has two equal elements, and their
// positions.
func (v *validator) duplicateItems(i uint32) (int, int, bool) {
	t := &v.t
	nd := &t.nodes[i]
	elems := v.idx[:0]
	for e := i + 1; e < nd.next; e = t.nodes[e].next {
		elems = append(elems, e)
	}
	v.idx = elems
	if len(elems) < uniqueHashMin {
		for a := 1; a < len(elems); a++ {
			for b := 0; b < a; b++ {
				if equalValues(t, elems[b], t, elems[a]) {
					return b, a, true
				}
			}
		}
		return 0, 0, false
	}
	type hashed struct {
		h   uint64
		pos int
	}
	hs := make([]hashed, len(elems))
	for k, e := range elems {
		hs[k] = hashed{t.hashValue(e), k}
	}
	slices.SortFunc(hs, func(x, y hashed) int {
		switch {
		case x.h < y.h:
			return -1
		case x.h > y.h:
			return 1
		}
		return x.pos - y.pos
	})
	for a := 0; a < len(hs); a++ {
		for b := a + 1; b < len(hs) && hs[b].h == hs[a].h; b++ {
			if equalValues(t, elems[hs[a].pos], t, elems[hs[b].pos]) {
				return min(hs[a].pos, hs[b].pos), max(hs[a].pos, hs[b].pos), true
			}
		}
	}
	return 0, 0, false
}
