package jsonrpc2

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// envelopeCases are messages for the fast path: each is decoded by
// it and by the full decoder, which must agree.
var envelopeCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`,
	`{"jsonrpc":"2.0","id":"a\u00e9","method":"m","params":[1,2]}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"m","params":null}`,
	` {"method":"m\u002fx", "id":-7, "jsonrpc":"2.0", "other":{"a":[true,null]}} `,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}`,                // duplicate deep inside
	`{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}`,                          // duplicate member
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":"\ud800"}}`,               // lone surrogate
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"x\":\"\xff\"}}", // invalid UTF-8
	`{"jsonrpc":"2.0","id":1,"method":"m"} {}`,                                    // trailing value
	`{"jsonrpc":"2.0","id":1,"method":"m"`,                                        // truncated
	`{"jsonrpc":"2.0","id":null,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":""}`,
	`{"jsonrpc":"2.0","id":1,"method":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`,
	`{"jsonrpc":"1.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2\u002e0","id":1,"method":"m"}`,
	`{"j\u0073onrpc":"2.0","id":1,"method":"m"}`,
	`{"Jsonrpc":"2.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"hi"}]}}`,
	`{"result":[1,2],"id":7,"jsonrpc":"2.0"}`,
	`{"jsonrpc":"2.0","id":1,"result":null}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{},"params":{}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"a":"\xff"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 127) + strings.Repeat("]", 127) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 128) + strings.Repeat("]", 128) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":` + strings.Repeat("{\"b\":", 126) + `1` + strings.Repeat("}", 126) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":` + strings.Repeat("{\"b\":", 127) + `1` + strings.Repeat("}", 127) + `}}`,
	`{"jsonrpc":"2.0","id":99999999999999999999,"method":"m"}`,
	`{"jsonrpc":"2.0","id":"\"q\"","method":"m"}`,
}

// checkFastPath fails t if the fast path accepts data and the full
// decoder does not, or decodes it differently.
func checkFastPath(t *testing.T, data []byte) {
	t.Helper()
	fast := decodeFast(data, false)
	owned := decodeFast(bytes.Clone(data), true)
	full, err := decodeFull(data)
	if (fast == nil) != (owned == nil) {
		t.Fatalf("decoding %q: the fast path decides differently for owned input", data)
	}
	if fast == nil {
		return // the full decoder decides
	}
	if err != nil {
		t.Fatalf("fast path accepts %q, the full decoder refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(fast, full) {
		t.Fatalf("decoding %q:\nfast %#v\nfull %#v", data, fast, full)
	}
	if !reflect.DeepEqual(owned, full) {
		t.Fatalf("decoding owned %q:\nfast %#v\nfull %#v", data, owned, full)
	}
}

func TestDecodeFastAgreesWithFullDecoder(t *testing.T) {
	accepted := 0
	for _, in := range envelopeCases {
		checkFastPath(t, []byte(in))
		if decodeFast([]byte(in), false) != nil {
			accepted++
		}
	}
	if accepted < 6 {
		t.Errorf("the fast path took %d of the cases; it should take the well-formed requests", accepted)
	}
	// The fast path must take the common request, or it is useless.
	if decodeFast([]byte(envelopeCases[0]), false) == nil {
		t.Error("the fast path refuses a plain tools/call")
	}
	if _, ok := decodeFast([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`), false).(*Response); !ok {
		t.Error("the fast path refuses a plain result")
	}
}

func TestDecodeFastCopiesParams(t *testing.T) {
	data := []byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`)
	msg, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 'x'
	}
	if got := string(msg.(*Request).Params); got != `{"a":1}` {
		t.Errorf("params changed with the input: %s", got)
	}
}

func FuzzDecodeFast(f *testing.F) {
	for _, s := range envelopeCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastPath(t, data)
	})
}

func BenchmarkDecode(b *testing.B) {
	data := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeFull(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestInternName(t *testing.T) {
	for _, name := range []string{"tools/call", "", "ping", strings.Repeat("x", 65), "tools/call"} {
		if got := internName([]byte(name)); got != name {
			t.Fatalf("internName(%q) = %q", name, got)
		}
	}
	// A name seen before comes from the cache: no allocation.
	b := []byte("tools/list")
	internName(b)
	if n := testing.AllocsPerRun(100, func() { internName(b) }); n != 0 {
		t.Errorf("internName of a cached name: %v allocations, want 0", n)
	}
	// Colliding names replace each other and stay correct.
	for i := range 1000 {
		name := fmt.Sprintf("m%d", i)
		if got := internName([]byte(name)); got != name {
			t.Fatalf("internName(%q) = %q", name, got)
		}
	}
}

func TestDecodeOwnedSharesTheResult(t *testing.T) {
	data := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	msg, err := DecodeOwned(data)
	if err != nil {
		t.Fatal(err)
	}
	res := msg.(*Response).Result
	if got := string(res); got != `{"content":[]}` {
		t.Fatalf("result %s", got)
	}
	if &res[0] != &data[bytes.Index(data, []byte(`{"content"`))] {
		t.Error("DecodeOwned copied the result of a message it was given")
	}
	if cap(res) != len(res) {
		t.Error("the result can be appended to over the rest of the message")
	}
}
