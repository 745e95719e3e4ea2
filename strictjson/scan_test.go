package strictjson

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// scanned is what a Scanner read: the names (objects) and raw values.
type scanned struct {
	names    []string
	values   []string
	complete bool
}

// scanAll reads data as an object (or, failing that, an array) with a
// Scanner.
func scanAll(data []byte, trusted bool) (got scanned, isObject, started bool) {
	if s, ok := ScanObject(data, trusted); ok {
		for {
			name, v, more := s.Member()
			if !more {
				break
			}
			got.names = append(got.names, string(name))
			got.values = append(got.values, string(v))
		}
		got.complete = s.Complete()
		return got, true, true
	}
	if s, ok := ScanArray(data, trusted); ok {
		for {
			v, more := s.Element()
			if !more {
				break
			}
			got.values = append(got.values, string(v))
		}
		got.complete = s.Complete()
		return got, false, true
	}
	return got, false, false
}

func TestScanner(t *testing.T) {
	long := "plain text, longer than a word of eight bytes"
	deep := func(n int) string { return strings.Repeat(`[`, n) + `1` + strings.Repeat("]", n) }
	tests := []struct {
		name      string
		in        string
		validated bool     // a validating Scanner reads it whole
		trusted   bool     // a trusted Scanner reads it whole (it checks no content)
		names     []string // the members a validating Scanner reads
	}{
		{"empty object", ` {} `, true, true, nil},
		{"plain members", `{"a":1,"b":"x\"}","c":{"d":[1,"]"]},"e":true,"f":null}`, true, true, []string{"a", "b", "c", "e", "f"}},
		{"whitespace", "\t{ \"a\" : 1 ,\r\n \"b\" : [ ] }\n", true, true, []string{"a", "b"}},
		{"same names in different objects", `{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, true, true, []string{"a", "b"}},
		{"escapes in values", `{"y":"\u00e9\n\t\"\\\/"}`, true, true, []string{"y"}},
		{"numbers", `{"n":[0,-0,1.5,-2e10,3E+2,4e-3]}`, true, true, []string{"n"}},
		{"UTF-8 names and values", `{"é":"ü"}`, true, true, []string{"é"}},
		{"nesting at the bound", `{"a":` + deep(MaxDepth-1) + `}`, true, true, []string{"a"}},
		{"nesting past the bound", `{"a":` + deep(MaxDepth) + `}`, false, true, nil},
		{"duplicate name", `{"a":1,"a":2}`, false, true, nil},
		{"duplicate name, nested", `{"a":{"b":1,"b":2}}`, false, true, nil},
		{"escaped name", `{"a\u0062":1}`, false, false, nil},
		{"escaped surrogates", `{"x":"\ud83d\ude00"}`, false, true, nil},
		{"trailing data", `{"a":1}x`, false, false, nil},
		{"trailing comma", `{"a":1,}`, false, false, nil},
		{"leading comma", `{,"a":1}`, false, false, nil},
		{"no value", `{"a":}`, false, false, nil},
		{"unterminated string", `{"a":"x`, false, false, nil},
		{"leading zero", `{"n":01}`, false, true, nil},
		{"bad fraction", `{"n":1.}`, false, true, nil},
		{"bad literal", `{"n":tru}`, false, true, nil},
		{"bad escape", `{"a":"\x"}`, false, true, nil},
		{"bad unicode escape", `{"a":"\u12g4"}`, false, true, nil},
		{"invalid UTF-8 name", "{\"\xff\":1}", false, true, nil},
		{"control character", "{\"a\":\"\x01\"}", false, true, nil},
		{"many names", `{` + manyMembers(40) + `}`, false, true, nil},
		{"many names open", strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat("}", 40), false, true, nil},
		{"long strings", `{"a":"` + long + `","b":"` + long + `\"` + long + `\\","c":["` + long + `é` + long + `"]}`, true, true, []string{"a", "b", "c"}},
		{"backslash runs before quotes", `{"a":"` + long + `\\\\\"\\","b":"\\\"` + long + `\\\\"}`, true, true, []string{"a", "b"}},
		{"control character in a long string", "{\"a\":\"" + long + "\x1f" + long + "\"}", false, true, nil},
		{"invalid UTF-8 in a long string", "{\"a\":\"" + long + "\xc3(" + long + "\"}", false, true, nil},
		{"invalid UTF-8 before an escape", "{\"a\":\"abc\xff\\n" + long + "\"}", false, true, nil},
		{"UTF-8 before an escape", "{\"a\":\"abcd\xc3\xa9\\n" + long + "\"}", true, true, []string{"a"}},
		{"unterminated long string", `{"a":"` + long + `\"` + long, false, false, nil},
		{"array", `[1,"a",{"b":[]}]`, true, true, nil},
		{"empty array", `[ ]`, true, true, nil},
		{"array with a trailing comma", `[1,]`, false, false, nil},
		{"not a container", `1`, false, false, nil},
		{"nothing", ``, false, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, trusted := range []bool{false, true} {
				want := tc.validated
				if trusted {
					want = tc.trusted
				}
				got, isObject, _ := scanAll([]byte(tc.in), trusted)
				if got.complete != want {
					t.Errorf("trusted=%v: complete %v, want %v (read %q)", trusted, got.complete, want, got.names)
				}
				if !trusted && got.complete && isObject && !slices.Equal(got.names, tc.names) {
					t.Errorf("trusted=%v: names %q, want %q", trusted, got.names, tc.names)
				}
			}
			checkScanner(t, []byte(tc.in))
		})
	}
}

func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":1`)
	}
	return b.String()
}

// checkScanner compares a Scanner with the decoder on data: what a
// validating Scanner reads whole, the decoder accepts with the same
// members and values; on what the decoder accepts, a trusted Scanner
// reads the same members and values; on anything, a trusted Scanner ends
// without a panic, every value within the input.
func checkScanner(t *testing.T, data []byte) {
	t.Helper()
	validated, isObject, started := scanAll(data, false)
	trusted, _, _ := scanAll(data, true)
	for _, v := range trusted.values {
		if len(v) == 0 || !bytes.Contains(data, []byte(v)) {
			t.Fatalf("%q: the trusted Scanner read a value %q not in the input", data, v)
		}
	}
	if !started {
		return
	}
	// What the decoder reads, and whether a Scanner's reading agrees.
	var agrees func(r scanned) bool
	var err error
	if isObject {
		var m map[string]jsontext.Value
		err = Unmarshal(data, &m)
		agrees = func(r scanned) bool {
			if len(r.names) != len(m) {
				return false
			}
			for i, name := range r.names {
				if v, ok := m[name]; !ok || string(v) != r.values[i] {
					return false
				}
			}
			return true
		}
	} else {
		var a []jsontext.Value
		err = Unmarshal(data, &a)
		agrees = func(r scanned) bool {
			if len(r.values) != len(a) {
				return false
			}
			for i, v := range a {
				if string(v) != r.values[i] {
					return false
				}
			}
			return true
		}
	}
	if validated.complete {
		if err != nil {
			t.Fatalf("%q: the validating Scanner reads it, the decoder refuses it: %v", data, err)
		}
		if !agrees(validated) {
			t.Fatalf("%q: the validating Scanner reads %q %q, the decoder otherwise", data, validated.names, validated.values)
		}
	}
	if err == nil && !(isObject && hasEscapedName(data)) { // the Scanner leaves escaped names to the decoder
		if !trusted.complete || !agrees(trusted) {
			t.Fatalf("%q: valid input, the trusted Scanner reads %q %q (complete %v), the decoder otherwise",
				data, trusted.names, trusted.values, trusted.complete)
		}
	}
}

// TestPlainRun puts each byte value at each place of a plain 24-byte
// string and checks plainRun against a byte at a time: it stops at a
// quote, a backslash or a control character, and notes a byte outside
// ASCII before it.
func TestPlainRun(t *testing.T) {
	for c := range 256 {
		for at := range 24 {
			data := []byte(strings.Repeat("abcdefgh", 3))
			data[at] = byte(c)
			special := c == '"' || c == '\\' || c < 0x20
			wantEnd := 24
			if special {
				wantEnd = at
			}
			wantWide := c >= 0x80 && at < wantEnd
			end, wide := plainRun(data, 0)
			if end != wantEnd || wide != wantWide {
				t.Fatalf("byte %#x at %d: plainRun = %d, %v; want %d, %v", c, at, end, wide, wantEnd, wantWide)
			}
		}
	}
}

// hasEscapedName reports whether data may have a member name with an
// escape, which a Scanner does not read.
func hasEscapedName(data []byte) bool { return bytes.IndexByte(data, '\\') >= 0 }

// FuzzScanner is the differential test of the Scanner against the
// decoder (checkScanner), for validating and trusted Scanners.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"a":1},"b":[{"a":1},{"a":2}]}}`,
		`{"iss":"https://as","sub":"u","aud":["a","b"],"exp":1e9,"cnf":{"jkt":"x"},"scp":["s"]}`,
		`{"a":"\ud83d\ude00","b":"\u00e9"}`, `[{"type":"text","text":"hi"}]`, `{"a":[1,2}`, `{"a":"`, `{`,
		`{"a":1,"a":2}`, "{\"\xff\":1}", `{"n":-0.5e+3}`,
		`{"text":"# Heading\n\nSome \"quoted\" words, a path C:\\dir\\ and \u00e9t\u00e9 in a paragraph"}`,
		"{\"a\":\"0123456789abcdef\x7f\xe2\x82\xac\\\\\\\\\\\"xyz\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanner(t, data)
	})
}

// benchResult is a tools/call result of about 2.5 KB: a markdown text,
// and structured content that holds it again.
var benchResult = func() []byte {
	md := strings.Repeat(`Use \"pkg.Do\" to run a task; it returns an error.\n`, 20)
	return []byte(`{"content":[{"type":"text","text":"` + md + `"}],"structuredContent":{"name":"pkg","markdown":"` + md + `","symbols":["Do","Task"]}}`)
}()

// BenchmarkScanResult reads a large result with a validating Scanner (as
// a response is checked) and a trusted one (as its result is then read).
func BenchmarkScanResult(b *testing.B) {
	for _, trusted := range []bool{false, true} {
		b.Run(map[bool]string{false: "validating", true: "trusted"}[trusted], func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(benchResult)))
			for b.Loop() {
				s, _ := ScanObject(benchResult, trusted)
				for {
					if _, _, more := s.Member(); !more {
						break
					}
				}
				if !s.Complete() {
					b.Fatal("not read")
				}
			}
		})
	}
}
