package jsonschema

import (
	"errors"
	"sync"
)

// maxEvalDepth bounds how deeply schemas may apply to one another during
// validation: instance nesting plus in-place applicators ($ref, allOf, ...).
// Reaching it is reported as a validation failure instead of overflowing the
// stack (for example with a $dynamicRef loop).
const maxEvalDepth = 2 * maxNesting

// errTooDeep is the message when maxEvalDepth is reached.
var errTooDeep = errors.New("jsonschema: evaluation nested too deeply")

// kseg is one step of the keyword path: a keyword, and a member name or
// index under it.
type kseg struct {
	kw  string
	key string
	idx int32 // -1 if none
}

// validator holds the state of one validation. Validators are pooled.
type validator struct {
	t          tape
	p          parser
	rs         *Resolved
	quiet      int // > 0: stop at the first failure, record nothing
	stop       bool
	truncated  bool
	errs       []Detail
	ipath      []int64 // instance path: key node index (>= 0), or -(array index)-1
	kpath      []kseg
	scope      []*resource
	ev         []uint64 // arena for evaluated-member bit sets
	evTop      int
	depth      int
	idx        []uint32 // scratch
	mb         msgBuf   // message being built
	ebuf       []byte   // scratch for building a Detail
	pidx       []int32  // stack of member-to-property indices (see object)
	inserts    []insertion
	tooDeepErr bool
}

var validatorPool = sync.Pool{New: func() any {
	v := new(validator)
	v.p.t = &v.t
	v.ev = make([]uint64, 0, 64)
	return v
}}

func (rs *Resolved) getValidator() *validator {
	v := validatorPool.Get().(*validator)
	v.rs = rs
	v.reset()
	return v
}

// reset clears the validator's state for a new validation.
func (v *validator) reset() {
	v.t.reset()
	v.p.depth = 0
	v.quiet, v.stop, v.truncated, v.tooDeepErr = 0, false, false, false
	v.errs = v.errs[:0]
	v.ipath, v.kpath, v.scope = v.ipath[:0], v.kpath[:0], v.scope[:0]
	v.evTop, v.depth = 0, 0
	v.pidx = v.pidx[:0]
}

func putValidator(v *validator) {
	v.rs = nil
	v.t.src = nil
	v.errs = nil
	clear(v.scope[:cap(v.scope)])
	if cap(v.t.nodes) > 1<<16 || cap(v.t.scratch) > 1<<20 || cap(v.ev) > 1<<12 {
		return // do not keep huge buffers alive
	}
	validatorPool.Put(v)
}

// Validate reports whether instance is valid against the schema. It returns
// nil if it is, a *ValidationError listing the failures if it is not, or
// another error if instance is not a JSON value.
//
// Instances are the values encoding/json produces when decoding into any
// (map[string]any, []any, float64, string, bool, nil), also json.Number, Go
// integers and floats, and json.RawMessage holding JSON text. Other Go
// values (structs, typed maps and slices) are converted with json.Marshal
// first, which is slower. Map members are checked in sorted key order.
func (rs *Resolved) Validate(instance any) error {
	v := rs.getValidator()
	defer putValidator(v)
	// First a quick check, taking map members in whatever order maps give
	// them; only an invalid instance is converted again with sorted keys,
	// to report its errors in a deterministic order.
	v.p.unsorted = true
	err := v.p.fromValue(instance)
	v.p.unsorted = false
	if err != nil {
		return err
	}
	v.quiet = 1
	if v.validate(rs.root, 0, nil) && !v.tooDeepErr {
		return nil
	}
	v.reset()
	if err := v.p.fromValue(instance); err != nil {
		return err
	}
	return v.run()
}

// ValidateJSON is like Validate for an instance given as JSON text. It
// validates the bytes directly, without building Go maps, and for a valid
// instance usually allocates nothing. The text must be one strict JSON value
// (valid UTF-8, no duplicate object keys); if it is not, the error wraps
// ErrInvalidJSON.
func (rs *Resolved) ValidateJSON(data []byte) error {
	v := rs.getValidator()
	defer putValidator(v)
	v.t.src = data
	if err := v.p.parseInto(data, false); err != nil {
		return err
	}
	return v.run()
}

// Valid reports whether instance is valid, stopping at the first failure and
// building no error. An instance that is not a JSON value is not valid.
func (rs *Resolved) Valid(instance any) bool {
	v := rs.getValidator()
	defer putValidator(v)
	if err := v.p.fromValue(instance); err != nil {
		return false
	}
	v.quiet = 1
	return v.validate(rs.root, 0, nil) && !v.tooDeepErr
}

// ValidJSON is Valid for JSON text.
func (rs *Resolved) ValidJSON(data []byte) bool {
	v := rs.getValidator()
	defer putValidator(v)
	v.t.src = data
	if err := v.p.parseInto(data, false); err != nil {
		return false
	}
	v.quiet = 1
	return v.validate(rs.root, 0, nil) && !v.tooDeepErr
}

func (v *validator) run() error {
	ok := v.validate(v.rs.root, 0, nil)
	if ok && len(v.errs) == 0 {
		return nil
	}
	if len(v.errs) == 0 {
		// Only when the depth limit was hit inside a quiet evaluation.
		v.errs = append(v.errs, Detail{Message: errTooDeep.Error()})
	}
	ve := &ValidationError{Details: v.errs, Truncated: v.truncated}
	v.errs = nil
	return ve
}

// validate applies schema n to node i. ev, if not nil, is the bit set of
// evaluated members (or elements) of i to update, for unevaluated*.
func (v *validator) validate(n *node, i uint32, ev []uint64) bool {
	switch n.always {
	case 1:
		return true
	case -1:
		if v.quiet == 0 {
			v.report(n, i, "", v.msg().s("not allowed"))
		}
		return false
	}
	if n.leaf {
		return v.scalar(n, i)
	}
	if v.depth >= maxEvalDepth {
		v.tooDeepErr = true
		if v.quiet == 0 {
			v.report(n, i, "", v.msg().s(errTooDeep.Error()))
		}
		v.stop = true
		return false
	}
	v.depth++
	pushed := false
	if v.rs.trackScope && (len(v.scope) == 0 || v.scope[len(v.scope)-1] != n.res) {
		v.scope = append(v.scope, n.res)
		pushed = true
	}
	own := ev
	evTop := v.evTop
	if n.needEval {
		own = v.newEv(i)
	}
	ok := v.keywords(n, i, own)
	if n.needEval {
		if ok && ev != nil {
			for k := range own {
				ev[k] |= own[k]
			}
		}
		v.evTop = evTop
	}
	if pushed {
		v.scope = v.scope[:len(v.scope)-1]
	}
	v.depth--
	return ok
}

// abort reports whether evaluation must stop after a failed check: in quiet
// mode, or after the error limit.
func (v *validator) abort() bool { return v.quiet > 0 || v.stop }

// keywords applies the keywords of n to node i.
func (v *validator) keywords(n *node, i uint32, ev []uint64) bool {
	nd := &v.t.nodes[i]
	ok := true
	if n.ref != nil {
		v.kpath = append(v.kpath, kseg{kw: "$ref", idx: -1})
		r := v.validate(n.ref, i, ev)
		v.kpath = v.kpath[:len(v.kpath)-1]
		if !r {
			if v.abort() {
				return false
			}
			ok = false
		}
	}
	if n.dynRef != nil && !v.dynamicRef(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	switch nd.kind {
	case kindArray:
		if !v.scalar(n, i) {
			if v.abort() {
				return false
			}
			ok = false
		}
		if n.checks&chkArray != 0 && !v.array(n, i, ev) {
			if v.abort() {
				return false
			}
			ok = false
		}
	case kindObject:
		if !v.scalar(n, i) {
			if v.abort() {
				return false
			}
			ok = false
		}
		if n.checks&chkObject != 0 && !v.object(n, i, ev) {
			if v.abort() {
				return false
			}
			ok = false
		}
	default:
		if !v.scalar(n, i) {
			if v.abort() {
				return false
			}
			ok = false
		}
	}
	if n.checks&chkApplicators != 0 && !v.applicators(n, i, ev) {
		if v.abort() {
			return false
		}
		ok = false
	}
	if n.needEval {
		r := true
		switch {
		case nd.kind == kindObject && n.objectKw != nil && n.unevalProps != nil:
			r = v.unevaluatedProps(n, i, ev)
		case nd.kind == kindArray && n.arrayKw != nil && n.unevalItems != nil:
			r = v.unevaluatedItems(n, i, ev)
		}
		if !r {
			ok = false
		}
	}
	return ok
}

// scalar applies type, const and enum, and the keywords for numbers and
// strings, to node i. It is all a leaf schema needs.
func (v *validator) scalar(n *node, i uint32) bool {
	nd := &v.t.nodes[i]
	ok := true
	if n.types != 0 && !typeMatches(n.types, nd) {
		if v.quiet > 0 || !v.report(n, i, "type", v.msg().s("expected ").types(n.types).s(", got ").s(v.typeOf(i))) {
			return false
		}
		ok = false
	}
	if n.constv != nil && !n.constv.contains(&v.t, i) {
		if v.quiet > 0 || !v.report(n, i, "const", v.msg().s("must be ").s(n.constv.text)) {
			return false
		}
		ok = false
	}
	if n.enum != nil && !n.enum.contains(&v.t, i) {
		if v.quiet > 0 || !v.report(n, i, "enum", v.msg().s("must be one of ").s(n.enum.text).s(" (got ").json(i).s(")")) {
			return false
		}
		ok = false
	}
	switch nd.kind {
	case kindNumber:
		if n.checks&chkNumber != 0 && !v.number(n, i) {
			return false
		}
	case kindString:
		if n.checks&chkString != 0 && !v.str(n, i) {
			return false
		}
	}
	return ok
}

func typeMatches(types typeSet, nd *tnode) bool {
	bit := kindTypes[nd.kind]
	if types&bit != 0 {
		return true
	}
	return nd.kind == kindNumber && types&typeInteger != 0 && nd.flags&flagInt != 0
}

// typeOf names the JSON type of node i for messages, "integer" for integers.
func (v *validator) typeOf(i uint32) string {
	nd := &v.t.nodes[i]
	if nd.kind == kindNumber && nd.flags&flagInt != 0 {
		return "integer"
	}
	return kindNames[nd.kind]
}

// newEv returns a zeroed bit set for the members or elements of node i, or
// nil if i is neither an object nor an array.
func (v *validator) newEv(i uint32) []uint64 {
	nd := &v.t.nodes[i]
	if nd.kind != kindObject && nd.kind != kindArray {
		return nil
	}
	words := int(nd.n+63) / 64
	if v.evTop+words > cap(v.ev) {
		// Grow; earlier bit sets keep their old backing array.
		v.ev = make([]uint64, 0, 2*(cap(v.ev)+words))
		v.evTop = 0
	}
	ev := v.ev[v.evTop : v.evTop+words : v.evTop+words]
	clear(ev)
	v.evTop += words
	return ev
}

func setBit(ev []uint64, k int) {
	if ev != nil {
		ev[k>>6] |= 1 << (k & 63)
	}
}

func hasBit(ev []uint64, k int) bool { return ev[k>>6]&(1<<(k&63)) != 0 }

func isKeyedKeyword(kw string) bool {
	switch kw {
	case "properties", "patternProperties", "dependentSchemas", "dependencies":
		return true
	}
	return false
}
