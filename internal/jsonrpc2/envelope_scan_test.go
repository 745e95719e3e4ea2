package jsonrpc2

import (
	"reflect"
	"strings"
	"testing"
)

// scanCases add to envelopeCases what the scanner itself must get right.
var scanCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"a":1},"b":[{"a":1},{"a":2}]}}`, // same names, different objects
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":1,"b":2}}}`,                 // duplicate, nested
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":"\ud83d\ude00","y":"\u00e9\n\t\"\\\/"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":[0,-0,1.5,-2e10,3E+2,4e-3]}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":01}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":1.}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":-}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":1e}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":tru}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[1,]}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m",}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"é":"ü"}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"\xff\":1}}",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"a\":\"\x01\"}}",
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\u12g4"}}`,
	"\t{ \"jsonrpc\" : \"2.0\" ,\r\n \"id\" : 1 , \"method\" : \"m\" }\n",
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{` + manyMembers(40) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat(`{"a":`, 126) + `1` + strings.Repeat("}", 126) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat(`{"a":`, 127) + `1` + strings.Repeat("}", 127) + `}`,
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

// checkScan fails t if the scanner accepts data and the token reader does
// not, or finds other members; then it checks the whole fast path.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	var scanned, read messageMembers
	if scanEnvelope(data, &scanned) {
		if !readEnvelope(data, &read) {
			t.Fatalf("the scanner accepts %q, the token reader does not", data)
		}
		if !reflect.DeepEqual(scanned, read) {
			t.Fatalf("scanning %q:\nscanner %q\nreader  %q", data, scanned, read)
		}
	}
	checkFastPath(t, data)
}

func TestScanEnvelope(t *testing.T) {
	for _, in := range append(append([]string{}, envelopeCases...), scanCases...) {
		checkScan(t, []byte(in))
	}
	// The scanner must take the plain messages, or it is useless.
	for _, in := range []string{envelopeCases[0], scanCases[0], scanCases[3], scanCases[12],
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"y":"\u00e9\n\t\"\\\/"}}`,
		`{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"hi"}]}}`} {
		var m messageMembers
		if !scanEnvelope([]byte(in), &m) {
			t.Errorf("the scanner refuses %s", in)
		}
	}
}
