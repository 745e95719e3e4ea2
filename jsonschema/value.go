package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// kv is a map member being converted to the tape.
type kv struct {
	k string
	v any
}

// fromValue appends the Go value v to the tape. It accepts the values
// encoding/json produces when decoding into any (map[string]any, []any,
// float64, string, bool, nil) as well as json.Number, Go integers and floats,
// json.RawMessage and []byte holding JSON. Any other value is converted
// through json.Marshal. Object members from maps are put in sorted key order
// so that errors come out in a deterministic order.
func (p *parser) fromValue(v any) error {
	t := p.t
	switch x := v.(type) {
	case nil:
		t.appendNode(tnode{kind: kindNull})
	case bool:
		k := kindFalse
		if x {
			k = kindTrue
		}
		t.appendNode(tnode{kind: k})
	case string:
		off := len(t.scratch)
		t.scratch = append(t.scratch, x...)
		t.appendNode(tnode{kind: kindString, flags: flagScratch, off: uint32(off), n: uint32(len(x))})
	case float64:
		return p.fromFloat(x)
	case float32:
		// Use the shortest text of the float32, as encoding/json writes it.
		off := len(t.scratch)
		t.scratch = strconv.AppendFloat(t.scratch, float64(x), 'g', -1, 32)
		return p.numberAt(off)
	case int:
		t.appendNode(intNode(int64(x)))
	case int64:
		t.appendNode(intNode(x))
	case int32:
		t.appendNode(intNode(int64(x)))
	case int16:
		t.appendNode(intNode(int64(x)))
	case int8:
		t.appendNode(intNode(int64(x)))
	case uint:
		return p.fromUint(uint64(x))
	case uint64:
		return p.fromUint(x)
	case uint32:
		t.appendNode(intNode(int64(x)))
	case uint16:
		t.appendNode(intNode(int64(x)))
	case uint8:
		t.appendNode(intNode(int64(x)))
	case json.Number:
		if !validNumber([]byte(x)) {
			return fmt.Errorf("%w: json.Number %q is not a JSON number", ErrInvalidJSON, string(x))
		}
		off := len(t.scratch)
		t.scratch = append(t.scratch, x...)
		return p.numberAt(off)
	case []any:
		return p.fromSlice(x)
	case map[string]any:
		return p.fromMap(x)
	case json.RawMessage:
		return p.parseInto(x, true)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("jsonschema: cannot validate a Go %T: %w", v, err)
		}
		return p.parseInto(b, true)
	}
	return nil
}

func (t *tape) appendNode(nd tnode) {
	nd.next = uint32(len(t.nodes)) + 1
	t.nodes = append(t.nodes, nd)
}

func (p *parser) fromFloat(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%w: %v is not a JSON number", ErrInvalidJSON, f)
	}
	i, flags := floatFlags(f)
	p.t.appendNode(tnode{kind: kindNumber, flags: flags, f: f, i: i})
	return nil
}

func (p *parser) fromUint(u uint64) error {
	if u <= math.MaxInt64 {
		p.t.appendNode(intNode(int64(u)))
		return nil
	}
	off := len(p.t.scratch)
	p.t.scratch = strconv.AppendUint(p.t.scratch, u, 10)
	return p.numberAt(off)
}

// numberAt appends a number node for the literal in scratch[off:].
func (p *parser) numberAt(off int) error {
	t := p.t
	lit := t.scratch[off:]
	nd := tnode{kind: kindNumber, flags: flagScratch, off: uint32(off), n: uint32(len(lit))}
	nd.f, nd.i, nd.flags = numberValue(lit, nd.flags)
	t.appendNode(nd)
	return nil
}

func (p *parser) fromSlice(x []any) error {
	if err := p.enter(); err != nil {
		return err
	}
	t := p.t
	idx := len(t.nodes)
	t.nodes = append(t.nodes, tnode{kind: kindArray, n: uint32(len(x))})
	for _, e := range x {
		if err := p.fromValue(e); err != nil {
			return err
		}
	}
	t.nodes[idx].next = uint32(len(t.nodes))
	p.depth--
	return nil
}

func (p *parser) fromMap(m map[string]any) error {
	if err := p.enter(); err != nil {
		return err
	}
	t := p.t
	idx := len(t.nodes)
	t.nodes = append(t.nodes, tnode{kind: kindObject, n: uint32(len(m))})
	if p.unsorted {
		for k, v := range m {
			off := len(t.scratch)
			t.scratch = append(t.scratch, k...)
			t.appendNode(tnode{kind: kindString, flags: flagScratch, off: uint32(off), n: uint32(len(k))})
			if err := p.fromValue(v); err != nil {
				return err
			}
		}
		t.nodes[idx].next = uint32(len(t.nodes))
		p.depth--
		return nil
	}
	start := len(p.kvs)
	for k, v := range m {
		p.kvs = append(p.kvs, kv{k, v})
	}
	end := len(p.kvs)
	slices.SortFunc(p.kvs[start:end], func(a, b kv) int { return strings.Compare(a.k, b.k) })
	for j := start; j < end; j++ {
		k := p.kvs[j].k
		off := len(t.scratch)
		t.scratch = append(t.scratch, k...)
		t.appendNode(tnode{kind: kindString, flags: flagScratch, off: uint32(off), n: uint32(len(k))})
		if err := p.fromValue(p.kvs[j].v); err != nil {
			clear(p.kvs[start:])
			p.kvs = p.kvs[:start]
			return err
		}
	}
	clear(p.kvs[start:end])
	p.kvs = p.kvs[:start]
	t.nodes[idx].next = uint32(len(t.nodes))
	p.depth--
	return nil
}

// sortKeys sorts key node indices by their text.
func sortKeys(t *tape, keys []uint32) {
	slices.SortFunc(keys, func(a, b uint32) int { return bytes.Compare(t.text(a), t.text(b)) })
}
