package mcp

import "bytes"

// A trustedObject reads the members of a JSON object that was validated
// with its whole message (see params_trusted.go), without a token reader:
// validated input needs no checks, only the ends of its values. It still
// stops, reporting failure, at anything that is not a well-formed object,
// so unvalidated input gives up rather than misreads.
type trustedObject struct {
	data  []byte
	i     int
	first bool
	ok    bool // the object was read to its end
}

// newTrustedObject starts reading the object data holds. ok is false if
// data does not start with an object.
func newTrustedObject(data []byte) (o trustedObject, ok bool) {
	i := skipJSONSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return trustedObject{}, false
	}
	return trustedObject{data: data, i: i + 1, first: true}, true
}

// next returns the next member: its name, written without escapes, and its
// raw value. more is false at the end of the object (then o.ok tells
// whether it was read whole and nothing follows it) or when a member
// cannot be read so (escaped name, malformed input).
func (o *trustedObject) next() (name, value []byte, more bool) {
	d := o.data
	i := skipJSONSpace(d, o.i)
	if i >= len(d) {
		return nil, nil, false
	}
	if d[i] == '}' {
		o.ok = skipJSONSpace(d, i+1) == len(d)
		return nil, nil, false
	}
	if !o.first {
		if d[i] != ',' {
			return nil, nil, false
		}
		i = skipJSONSpace(d, i+1)
	}
	o.first = false
	if i >= len(d) || d[i] != '"' {
		return nil, nil, false
	}
	end := jsonStringEnd(d, i)
	if end < 0 {
		return nil, nil, false
	}
	name = d[i+1 : end-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		return nil, nil, false
	}
	i = skipJSONSpace(d, end)
	if i >= len(d) || d[i] != ':' {
		return nil, nil, false
	}
	i = skipJSONSpace(d, i+1)
	vend := jsonValueEnd(d, i)
	if vend < 0 {
		return nil, nil, false
	}
	o.i = vend
	return name, d[i:vend], true
}

func skipJSONSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// jsonStringEnd returns the offset just past the string that starts at
// d[i] (a quote), or -1.
func jsonStringEnd(d []byte, i int) int {
	for j := i + 1; j < len(d); j++ {
		switch d[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// jsonValueEnd returns the offset just past the value that starts at d[i],
// or -1.
func jsonValueEnd(d []byte, i int) int {
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		return jsonStringEnd(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end := jsonStringEnd(d, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case ',', '}', ']', ':':
		return -1
	}
	j := i
	for j < len(d) {
		switch d[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}

// A trustedArray reads the elements of a validated JSON array, as
// trustedObject reads members.
type trustedArray struct {
	data  []byte
	i     int
	first bool
	ok    bool // the array was read to its end
}

// newTrustedArray starts reading the array data holds. ok is false if
// data does not start with an array.
func newTrustedArray(data []byte) (a trustedArray, ok bool) {
	i := skipJSONSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return trustedArray{}, false
	}
	return trustedArray{data: data, i: i + 1, first: true}, true
}

// next returns the next element. more is false at the end of the array
// (then a.ok tells whether it was read whole and nothing follows it) or
// when an element cannot be read.
func (a *trustedArray) next() (value []byte, more bool) {
	d := a.data
	i := skipJSONSpace(d, a.i)
	if i >= len(d) {
		return nil, false
	}
	if d[i] == ']' {
		a.ok = skipJSONSpace(d, i+1) == len(d)
		return nil, false
	}
	if !a.first {
		if d[i] != ',' {
			return nil, false
		}
		i = skipJSONSpace(d, i+1)
	}
	a.first = false
	end := jsonValueEnd(d, i)
	if end < 0 {
		return nil, false
	}
	a.i = end
	return d[i:end], true
}
