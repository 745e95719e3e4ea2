package jsonschema

// formats maps format names to their checks, used when format is asserted
// (ResolveOptions.AssertFormat, or the format-assertion vocabulary). Formats
// not listed are not checked. Every check is strict: no leading or trailing
// space, ASCII digits only.
var formats = map[string]func(string) bool{
	"date-time":             isDateTime,
	"date":                  isDate,
	"time":                  isTime,
	"duration":              isDuration,
	"email":                 isEmail,
	"idn-email":             isIDNEmail,
	"hostname":              isHostname,
	"idn-hostname":          isIDNHostname,
	"ipv4":                  isIPv4,
	"ipv6":                  isIPv6,
	"uri":                   isURI,
	"uri-reference":         isURIReference,
	"iri":                   isIRI,
	"iri-reference":         isIRIReference,
	"uri-template":          isURITemplate,
	"uuid":                  isUUID,
	"json-pointer":          isJSONPointer,
	"relative-json-pointer": isRelativeJSONPointer,
	"regex":                 isRegex,
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }

// digits parses s[i:i+n] as a decimal number of exactly n ASCII digits.
func digits(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// isDate checks an RFC 3339 full-date: YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	return ok1 && ok2 && ok3 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isTime checks an RFC 3339 full-time: HH:MM:SS[.frac](Z|+HH:MM|-HH:MM). A
// leap second (:60) is valid only at 23:59 UTC.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s, 0, 2)
	m, ok2 := digits(s, 3, 2)
	sec, ok3 := digits(s, 6, 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	i := 8
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	if i >= len(s) {
		return false
	}
	offH, offM := 0, 0
	switch s[i] {
	case 'Z', 'z':
		if i+1 != len(s) {
			return false
		}
	case '+', '-':
		if len(s) != i+6 || s[i+3] != ':' {
			return false
		}
		var ok1, ok2 bool
		offH, ok1 = digits(s, i+1, 2)
		offM, ok2 = digits(s, i+4, 2)
		if !ok1 || !ok2 || offH > 23 || offM > 59 {
			return false
		}
		if s[i] == '-' {
			offH, offM = -offH, -offM
		}
	default:
		return false
	}
	if sec == 60 {
		// Convert to UTC: local = UTC + offset.
		mins := ((h*60+m-(offH*60+offM))%1440 + 1440) % 1440
		return mins == 23*60+59
	}
	return true
}

// isDateTime checks an RFC 3339 date-time.
func isDateTime(s string) bool {
	return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// isDuration checks an RFC 3339 (Appendix A) duration, such as P1DT2H.
func isDuration(s string) bool {
	if len(s) < 2 || s[0] != 'P' {
		return false
	}
	rest := s[1:]
	date, timePart, hasT := cutByte(rest, 'T')
	if hasT && timePart == "" {
		return false
	}
	if date == "" && !hasT {
		return false
	}
	if date != "" {
		if !durationUnits(date, "YMD") && !(durationUnits(date, "W") && !hasT) {
			return false
		}
	}
	return !hasT || durationUnits(timePart, "HMS")
}

// durationUnits checks a run of number+unit elements whose units are a
// contiguous, ordered part of units (so "Y" then "D" without "M" fails).
func durationUnits(s, units string) bool {
	pos := -1
	for s != "" {
		i := 0
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == 0 || i == len(s) {
			return false
		}
		u := indexByte(units, s[i])
		if u < 0 || u <= pos || (pos >= 0 && u != pos+1) {
			return false
		}
		pos = u
		s = s[i+1:]
	}
	return pos >= 0
}

func cutByte(s string, c byte) (before, after string, found bool) {
	if i := indexByte(s, c); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// isUUID checks the RFC 4122 text form 8-4-4-4-12 (hex, any case).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// isJSONPointer checks an RFC 6901 JSON Pointer.
func isJSONPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	return true
}

// isRelativeJSONPointer checks a relative JSON Pointer: a non-negative
// integer followed by "#" or a JSON Pointer.
func isRelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || (s[0] == '0' && i > 1) {
		return false
	}
	rest := s[i:]
	return rest == "#" || isJSONPointer(rest)
}

// isIPv4 checks a dotted-quad IPv4 address without leading zeros.
func isIPv4(s string) bool {
	parts := 0
	for {
		i := 0
		v := 0
		for i < len(s) && isDigit(s[i]) && i < 4 {
			v = v*10 + int(s[i]-'0')
			i++
		}
		if i == 0 || i > 3 || v > 255 || (i > 1 && s[0] == '0') {
			return false
		}
		parts++
		s = s[i:]
		if parts == 4 {
			return s == ""
		}
		if s == "" || s[0] != '.' {
			return false
		}
		s = s[1:]
	}
}

// isIPv6 checks an RFC 4291 IPv6 address in text form (no zone, no prefix
// length), with an optional trailing dotted-quad IPv4 part.
func isIPv6(s string) bool {
	groups := 0
	compressed := false
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		compressed = true
		s = s[2:]
		if s == "" {
			return true
		}
	} else if s == "" || s[0] == ':' {
		return false
	}
	for {
		// An IPv4 tail?
		if indexByte(s, '.') >= 0 && indexByte(s, ':') < 0 {
			if !isIPv4(s) {
				return false
			}
			groups += 2
			break
		}
		i := 0
		for i < len(s) && isHex(s[i]) {
			i++
		}
		if i == 0 || i > 4 {
			return false
		}
		groups++
		s = s[i:]
		if s == "" {
			break
		}
		if s[0] != ':' {
			return false
		}
		if len(s) >= 2 && s[1] == ':' {
			if compressed {
				return false
			}
			compressed = true
			s = s[2:]
			if s == "" {
				break
			}
			continue
		}
		s = s[1:]
		if s == "" {
			return false // trailing single colon
		}
	}
	if compressed {
		return groups <= 7
	}
	return groups == 8
}
