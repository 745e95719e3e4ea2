package mcp

import (
	"bytes"

	"github.com/gomcp/sdk/strictjson"
)

// The trace context telemetry puts in the _meta of every request and
// notification (W3C Trace Context and Baggage) differs from message to
// message, so a _meta carrying it never matches the cache of decoded
// _meta (decodedMetas) and is decoded in full, although the rest of it is
// the same in every request of a client. This file reads such a _meta
// fast: the trace-context members, when they are plain strings, are set
// aside, and what remains is looked up in the cache.

// traceMetaKeys are the _meta members the fast path sets aside: the keys
// MCP reserves for trace context.
var traceMetaKeys = [...]string{"traceparent", "tracestate", "baggage"}

// maxRestLen is the size of the buffer that holds a _meta without its
// trace context on the stack; longer ones are not looked up.
const maxRestLen = 512

// traceMembers are the trace-context members of one _meta, as offsets of
// their string values (without the quotes) in the encoding.
type traceMembers struct {
	n    int
	key  [len(traceMetaKeys)]int // index in traceMetaKeys
	from [len(traceMetaKeys)]int
	to   [len(traceMetaKeys)]int
}

// traceMetaKey returns the index in traceMetaKeys of name, or -1. The
// comparison is case-sensitive, as every _meta key is.
func traceMetaKey(name []byte) int {
	for i, k := range traceMetaKeys {
		if string(name) == k {
			return i
		}
	}
	return -1
}

// splitTraceMeta reads the object data holds and returns it without its
// trace-context members (appended to buf), and those members. ok is false
// when data has no trace-context member, or when it cannot be read so: a
// trace-context member that is not a plain string (printable ASCII without
// escapes), one that appears twice, an escaped member name or anything
// malformed. The full decoder then decides.
//
// The object is read with a trusted strictjson.Scanner, which finds the
// ends of the values of valid JSON but does not validate: rest is only
// trusted when it is byte for byte an encoding decoded before (see
// decodeTraceMeta), and since each member kept is read as it is in rest,
// data is then valid too, with the same members plus the trace-context
// ones.
func splitTraceMeta(data, buf []byte) (rest []byte, tm traceMembers, ok bool) {
	if !bytes.Contains(data, []byte(`"trace`)) && !bytes.Contains(data, []byte(`"baggage"`)) {
		return nil, tm, false // no member to set aside: not worth reading
	}
	o, ok := strictjson.ScanObject(data, true)
	if !ok {
		return nil, tm, false
	}
	var seen [len(traceMetaKeys)]bool
	rest = append(buf, '{')
	for {
		name, value, more := o.Member()
		if !more {
			break
		}
		k := traceMetaKey(name)
		if k < 0 {
			if len(rest) > 1 {
				rest = append(rest, ',')
			}
			start := offsetIn(data, name) - 1 // the name's opening quote
			rest = append(rest, data[start:offsetIn(data, value)+len(value)]...)
			continue
		}
		if seen[k] || len(value) < 2 || value[0] != '"' || !plainJSONBytes(value[1:len(value)-1]) {
			return nil, tm, false
		}
		seen[k] = true
		from := offsetIn(data, value) + 1
		tm.key[tm.n], tm.from[tm.n], tm.to[tm.n] = k, from, from+len(value)-2
		tm.n++
	}
	if !o.Complete() || tm.n == 0 {
		return nil, tm, false
	}
	return append(rest, '}'), tm, true
}

// plainJSONBytes is plainJSONString for bytes.
func plainJSONBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// offsetIn returns the offset in data of part, a slice of it.
func offsetIn(data, part []byte) int { return cap(data) - cap(part) }

// data returns the members as a Data map, their values copied out of enc,
// the encoding they were read from: in one string when they are close
// together (as an encoder writes them), else one string each.
func (tm *traceMembers) data(enc []byte) map[string]any {
	lo, hi, n := len(enc), 0, 0
	for i := range tm.n {
		lo, hi, n = min(lo, tm.from[i]), max(hi, tm.to[i]), n+tm.to[i]-tm.from[i]
	}
	var s string
	if hi-lo <= n+64 {
		s = string(enc[lo:hi])
	}
	m := make(map[string]any, tm.n)
	for i := range tm.n {
		from, to := tm.from[i], tm.to[i]
		if s != "" {
			m[traceMetaKeys[tm.key[i]]] = s[from-lo : to-lo]
		} else {
			m[traceMetaKeys[tm.key[i]]] = string(enc[from:to])
		}
	}
	return m
}

// decodeTraceMeta decodes data fast when it is a _meta seen before plus
// trace context: rest (data without its trace-context members) is an empty
// object or an encoding in the cache of decoded _meta. ok is false
// otherwise.
func decodeTraceMeta(data, rest []byte, tm *traceMembers) (m Meta, ok bool) {
	if string(rest) != "{}" {
		if m, ok = decodedMetas.get(rest); !ok {
			return Meta{}, false
		}
	}
	m.Data = tm.data(data)
	return m, true
}

// rememberTraceMeta caches the decoding of rest, data without its trace
// context, when m (the full decoding of data) holds nothing else per
// message: so the next _meta with the same members and other trace context
// takes the fast path.
func rememberTraceMeta(rest []byte, tm *traceMembers, m Meta) {
	if len(m.Data) != tm.n {
		return
	}
	for i := range tm.n {
		if _, ok := m.Data[traceMetaKeys[tm.key[i]]]; !ok {
			return
		}
	}
	m.Data = nil
	if m.sharable() {
		decodedMetas.put(rest, m)
	}
}
