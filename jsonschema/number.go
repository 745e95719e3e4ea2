package jsonschema

import (
	"math"
	"math/big"
	"strconv"
)

// Numbers are kept as float64 plus, when they are integers that fit, an exact
// int64, plus their literal text when they came from JSON text. Comparisons
// use the int64 when both sides have one, the float64 otherwise, and exact
// rational arithmetic (math/big) only where float64 cannot decide: numbers
// with more than 15 significant digits, and multipleOf.

// scanNumber returns the end of the JSON number starting at data[start], and
// whether it is well formed.
func scanNumber(data []byte, start int) (int, bool) {
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return i, false
	}
	switch {
	case data[i] == '0':
		i++
	case data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return i, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		d := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		if i == d {
			return i, false
		}
	}
	return i, true
}

// validNumber reports whether s is exactly one JSON number.
func validNumber(s []byte) bool {
	end, ok := scanNumber(s, 0)
	return ok && end == len(s)
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal is a number literal as significant digits and a power of ten:
// mant × 10^e10, negated if neg.
type decimal struct {
	mant    uint64 // significant digits, without trailing zeros
	sig     int    // number of significant digits
	e10     int
	neg     bool
	many    bool // more than 19 significant digits: mant is incomplete
	nonzero bool
}

// parseDecimal splits a well-formed JSON number literal.
func parseDecimal(lit []byte) decimal {
	var d decimal
	i := 0
	if d.neg = lit[0] == '-'; d.neg {
		i++
	}
	tz, fracLen, exponent, inFrac := 0, 0, 0, false
	for ; i < len(lit); i++ {
		c := lit[i]
		if c == '.' {
			inFrac = true
			continue
		}
		if c == 'e' || c == 'E' {
			exponent = parseExponent(lit[i+1:])
			break
		}
		if inFrac {
			fracLen++
		}
		digit := uint64(c - '0')
		switch {
		case digit == 0:
			if d.nonzero {
				tz++ // a trailing zero, unless a nonzero digit follows
			}
		case !d.nonzero:
			d.nonzero, d.mant, d.sig = true, digit, 1
		case d.many || d.sig+tz+1 > 19:
			d.many = true
			d.sig += tz + 1
			tz = 0
		default:
			for ; tz > 0; tz-- {
				d.mant *= 10
				d.sig++
			}
			d.mant = d.mant*10 + digit
			d.sig++
		}
	}
	d.e10 = exponent - fracLen + tz
	return d
}

// numberValue computes the float64 and int64 values and the number flags of a
// well-formed JSON number literal. flags carries bits to keep (flagScratch).
func numberValue(lit []byte, flags uint8) (float64, int64, uint8) {
	flags &= flagScratch
	d := parseDecimal(lit)
	if !d.nonzero {
		f := 0.0
		if d.neg {
			f = math.Copysign(0, -1)
		}
		return f, 0, flags | flagInt | flagI64
	}
	if d.e10 >= 0 {
		flags |= flagInt
	}
	var f float64
	if !d.many && d.sig <= 15 && d.e10 >= -22 && d.e10 <= 22 {
		// Exact: both mant and the power of ten are exact float64s.
		f = float64(d.mant)
		if d.e10 >= 0 {
			f *= pow10[d.e10]
		} else {
			f /= pow10[-d.e10]
		}
		if d.neg {
			f = -f
		}
	} else {
		f, _ = strconv.ParseFloat(string(lit), 64)
	}
	if d.sig > 15 || math.IsInf(f, 0) || f == 0 {
		flags |= flagApprox
	}
	if flags&flagInt != 0 && !d.many && d.e10 <= 18 {
		if i64, ok := d.int64(); ok {
			return f, i64, flags | flagI64
		}
	}
	return f, 0, flags
}

// int64 returns the value of an integral decimal, if it fits in int64.
func (d decimal) int64() (int64, bool) {
	v := d.mant
	for k := 0; k < d.e10; k++ {
		if v > math.MaxUint64/10 {
			return 0, false
		}
		v *= 10
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	if d.neg {
		return -int64(v), true
	}
	return int64(v), true
}

// parseExponent parses an exponent such as "+12" or "-3", saturating far
// beyond float64's range.
func parseExponent(b []byte) int {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	e := 0
	for _, c := range b {
		if e < 1e8 {
			e = e*10 + int(c-'0')
		}
	}
	if neg {
		return -e
	}
	return e
}

// floatFlags returns the flags and int64 value for a Go float64.
func floatFlags(f float64) (int64, uint8) {
	flags := flagNoText
	if f == math.Trunc(f) {
		flags |= flagInt
		if f >= -(1<<63) && f < 1<<63 {
			return int64(f), flags | flagI64
		}
	}
	return 0, flags
}

// intNode returns a number node for a Go integer.
func intNode(i int64) tnode {
	flags := flagNoText | flagInt | flagI64
	if i > 1<<53 || i < -(1<<53) {
		flags |= flagApprox
	}
	return tnode{kind: kindNumber, flags: flags, f: float64(i), i: i}
}

// numText returns a number's literal text, or formats it.
func (t *tape) numText(i uint32) string {
	nd := &t.nodes[i]
	if nd.flags&flagNoText == 0 {
		return string(t.text(i))
	}
	if nd.flags&flagI64 != 0 {
		return strconv.FormatInt(nd.i, 10)
	}
	return strconv.FormatFloat(nd.f, 'g', -1, 64)
}

// rat returns the exact value of number node i: its literal, or for a Go
// float the shortest decimal that reads back as it (what the value was
// meant to be, as in encoding/json's output).
func (t *tape) rat(i uint32) *big.Rat {
	nd := &t.nodes[i]
	r := new(big.Rat)
	switch {
	case nd.flags&flagNoText == 0:
		if _, ok := r.SetString(string(t.text(i))); ok {
			return r
		}
		r.SetFloat64(nd.f)
	case nd.flags&flagI64 != 0:
		r.SetInt64(nd.i)
	default:
		r.SetString(strconv.FormatFloat(nd.f, 'g', -1, 64))
	}
	return r
}

// numLimit is a numeric keyword's value, prepared for comparisons.
type numLimit struct {
	f      float64
	i      int64
	isI64  bool   // f is an integer in int64 range; i holds it
	lit    string // the JSON literal, if f does not hold it exactly
	approx bool   // f is not exactly lit (a literal of more than 15 digits)
}

func newNumLimit(f float64, literal string) *numLimit {
	l := &numLimit{f: f}
	if literal != "" {
		l.lit, l.approx = literal, true
	}
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && !l.approx {
		l.i, l.isI64 = int64(f), true
	}
	return l
}

// cmpLimit compares number node i with l: -1, 0 or +1. Numbers from JSON
// text compare exactly; Go floats compare as float64s.
func (t *tape) cmpLimit(i uint32, l *numLimit) int {
	nd := &t.nodes[i]
	if nd.flags&flagI64 != 0 && l.isI64 {
		switch {
		case nd.i < l.i:
			return -1
		case nd.i > l.i:
			return 1
		}
		return 0
	}
	switch {
	case nd.f < l.f:
		return -1
	case nd.f > l.f:
		return 1
	}
	if nd.flags&flagNoText == 0 && (nd.flags&flagApprox != 0 || l.approx) {
		lr, ok := new(big.Rat).SetString(l.text())
		if !ok {
			lr.SetFloat64(l.f)
		}
		return t.rat(i).Cmp(lr)
	}
	return 0
}

// text returns the limit's JSON literal or the shortest text of its value.
func (l *numLimit) text() string {
	if l.lit != "" {
		return l.lit
	}
	return string(l.appendText(nil))
}

func (l *numLimit) appendText(b []byte) []byte {
	if l.lit != "" {
		return append(b, l.lit...)
	}
	return strconv.AppendFloat(b, l.f, 'g', -1, 64)
}

// multipleOf reports whether number node i is an integer multiple of d (> 0).
func (t *tape) multipleOf(i uint32, d *numLimit) bool {
	nd := &t.nodes[i]
	if nd.flags&flagI64 != 0 && d.isI64 && d.i != 0 {
		return nd.i%d.i == 0
	}
	if nd.flags&flagApprox == 0 {
		q := nd.f / d.f
		if !math.IsInf(q, 0) && q == math.Trunc(q) && math.Abs(q) < 1<<53 {
			return true
		}
	}
	// Exact decimal arithmetic: the instance's literal (or shortest float
	// text) divided by the divisor's shortest decimal text.
	x := t.rat(i)
	dr, ok := new(big.Rat).SetString(d.text())
	if !ok || dr.Sign() == 0 {
		return false
	}
	return x.Quo(x, dr).IsInt()
}
