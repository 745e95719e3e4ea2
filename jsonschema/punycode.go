package jsonschema

import (
	"math"
	"strings"
)

// Punycode (RFC 3492) decoding and encoding, for IDNA A-labels.

const (
	pcBase        = 36
	pcTMin        = 1
	pcTMax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
)

func pcAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}

func pcDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') + 26, true
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	case c >= 'A' && c <= 'Z':
		return int(c - 'A'), true
	}
	return 0, false
}

func pcThreshold(k, bias int) int {
	switch t := k - bias; {
	case t < pcTMin:
		return pcTMin
	case t > pcTMax:
		return pcTMax
	default:
		return t
	}
}

// punyDecode decodes the Punycode s (without the "xn--" prefix).
func punyDecode(s string) ([]rune, bool) {
	var out []rune
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for k := 0; k < i; k++ {
			if s[k] >= 0x80 {
				return nil, false
			}
			out = append(out, rune(s[k]))
		}
		s = s[i+1:]
	}
	n, bias, i := pcInitialN, pcInitialBias, 0
	for pos := 0; pos < len(s); {
		oldi, w := i, 1
		for k := pcBase; ; k += pcBase {
			if pos >= len(s) {
				return nil, false
			}
			d, ok := pcDigit(s[pos])
			pos++
			if !ok || d > (math.MaxInt32-i)/w {
				return nil, false
			}
			i += d * w
			t := pcThreshold(k, bias)
			if d < t {
				break
			}
			if w > math.MaxInt32/(pcBase-t) {
				return nil, false
			}
			w *= pcBase - t
		}
		bias = pcAdapt(i-oldi, len(out)+1, oldi == 0)
		if i/(len(out)+1) > math.MaxInt32-n {
			return nil, false
		}
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF) {
			return nil, false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	return out, true
}

// punyEncode encodes runes as Punycode (without the "xn--" prefix).
func punyEncode(runes []rune) (string, bool) {
	var b strings.Builder
	basic := 0
	for _, r := range runes {
		if r < 0x80 {
			b.WriteByte(byte(r))
			basic++
		}
	}
	h := basic
	if basic > 0 {
		b.WriteByte('-')
	}
	n, delta, bias := pcInitialN, 0, pcInitialBias
	for h < len(runes) {
		m := math.MaxInt32
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if (m - n) > (math.MaxInt32-delta)/(h+1) {
			return "", false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				delta++
			}
			if int(r) == n {
				q := delta
				for k := pcBase; ; k += pcBase {
					t := pcThreshold(k, bias)
					if q < t {
						break
					}
					b.WriteByte(pcEncodeDigit(t + (q-t)%(pcBase-t)))
					q = (q - t) / (pcBase - t)
				}
				b.WriteByte(pcEncodeDigit(q))
				bias = pcAdapt(delta, h+1, h == basic)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return b.String(), true
}

func pcEncodeDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}
