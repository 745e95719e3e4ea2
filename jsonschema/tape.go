package jsonschema

// A tape is the flat, allocation-friendly form of a JSON value that the
// validator walks. Both entry points build one: ValidateJSON parses bytes into
// it directly, and Validate converts Go values (map[string]any and friends)
// into it. Tapes live in pooled validators, so after warm-up building one does
// not allocate.
//
// Layout: a value is one tnode followed by its descendants. An array node is
// followed by its elements; an object node by key/value pairs, where each key
// is a string node directly followed by the value's subtree. Every node
// records in next the index just past its subtree, so siblings are reached
// without recursion.

// kind is the JSON type of a tape node.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindArray
	kindObject
)

// tnode flags.
const (
	// flagScratch: the string or number text is in tape.scratch, not tape.src.
	flagScratch uint8 = 1 << iota
	// flagInt: the number is mathematically an integer.
	flagInt
	// flagI64: the number is an integer that fits in int64; tnode.i holds it.
	flagI64
	// flagApprox: tnode.f may differ from the number's exact value (more than
	// 15 significant digits, or out of float64 range).
	flagApprox
	// flagNoText: the number came from a Go float or integer and has no
	// literal text.
	flagNoText
)

// tnode is one JSON value on a tape.
type tnode struct {
	kind  kind
	flags uint8
	// n is the byte length of a string or number literal, or the number of
	// elements of an array or members of an object.
	n uint32
	// off is the offset of a string's (unescaped) bytes or a number's
	// literal; for an object parsed from text, the offset of its '}'.
	off uint32
	// next is the index of the first node after this value's subtree.
	next uint32
	f    float64
	i    int64
}

// tape holds a parsed JSON value.
type tape struct {
	nodes   []tnode
	src     []byte // caller's bytes; never modified and not retained
	scratch []byte // unescaped strings and copied text
}

func (t *tape) reset() {
	t.nodes = t.nodes[:0]
	t.src = nil
	t.scratch = t.scratch[:0]
}

// text returns the bytes of a string or number node.
func (t *tape) text(i uint32) []byte {
	nd := &t.nodes[i]
	if nd.flags&flagScratch != 0 {
		return t.scratch[nd.off : nd.off+nd.n]
	}
	return t.src[nd.off : nd.off+nd.n]
}

// member calls are done by iterating: the first key of object i is i+1; the
// value of key k is k+1; the key after value v is t.nodes[v].next.

// lookup returns the index of the value of member name in object i, or 0.
func (t *tape) lookup(i uint32, name string) uint32 {
	nd := &t.nodes[i]
	k := i + 1
	for m := uint32(0); m < nd.n; m++ {
		if string(t.text(k)) == name {
			return k + 1
		}
		k = t.nodes[k+1].next
	}
	return 0
}

// has reports whether object i has a member called name.
func (t *tape) has(i uint32, name string) bool { return t.lookup(i, name) != 0 }
