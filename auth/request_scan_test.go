package auth

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// scanCases are bodies the direct scanner reads itself (direct true) or
// leaves to the jsontext scan.
var scanCases = []struct {
	name, body string
	direct     bool
}{
	{"tools/call", legacyCall(1, "whoami"), true},
	{"batch", "[" + legacyCall(1, "a") + " , " + legacyCall(2, "b") + "]", true},
	{"empty batch", `[ ]`, true},
	{"resource", `{"method":"resources/read","params":{"uri":"file:///x","name":"n"}}`, true},
	{"notification without params", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
	{"response", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\nb"}]}}`, true},
	{"non-string method and name", `{"method":1,"params":{"name":true,"uri":null}}`, true},
	{"params not an object", `{"method":"tools/call","params":[1,2]}`, true},
	{"escapes in arguments", `{"method":"tools/call","params":{"name":"t","arguments":{"s":"\"q\"\n\u00e9"}}}`, true},

	{"escaped method name", `{"jsonrpc":"2.0","id":1,"\u006dethod":"tools/call","params":{"n\u0061me":"whoami"}}`, false},
	{"escaped tool name", `{"method":"tools/call","params":{"name":"who\u0061mi"}}`, false},
	{"duplicate method", `{"method":"tools/list","method":"tools/call"}`, false},
	{"duplicate other member", `{"id":1,"id":2,"method":"tools/call"}`, false},
	{"deep arguments", `{"method":"tools/call","params":{"arguments":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}}`, false},
	{"not a message", `"tools/call"`, false},
	{"batch of non-objects", `[1]`, false},
	{"trailing data", legacyCall(1, "a") + "x", false},
	{"invalid UTF-8", "{\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\"}}", false},
	{"empty", ``, false},
}

// TestScanOperationsDirect checks which bodies the direct scanner reads,
// and that it reads them as the jsontext scan does.
func TestScanOperationsDirect(t *testing.T) {
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := scanOperationsDirect([]byte(tc.body), nil); ok != tc.direct {
				t.Errorf("direct = %v, want %v", ok, tc.direct)
			}
			checkSameOperations(t, tc.body)
		})
	}
}

// checkSameOperations fails t if the direct scanner reads body and the
// jsontext scan refuses it or reads other operations.
func checkSameOperations(t *testing.T, body string) {
	t.Helper()
	prefix := []operation{{method: "before"}}
	got, ok := scanOperationsDirect([]byte(body), prefix[:1:1])
	if !ok {
		if len(got) != 1 || got[0] != prefix[0] {
			t.Fatalf("direct scan of %q gave up but changed ops to %+v", body, got)
		}
		return
	}
	var d jsontext.Decoder
	d.Reset(bytes.NewReader([]byte(body)), scanOptions)
	want, err := scanOperations(&d, prefix[:1:1])
	if err != nil {
		t.Fatalf("direct scan of %q read %+v, the jsontext scan refuses it: %v", body, got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("direct scan of %q read %+v, the jsontext scan %+v", body, got, want)
	}
}

// FuzzScanOperationsDirect checks that whatever the direct scanner reads
// the jsontext scan reads alike.
func FuzzScanOperationsDirect(f *testing.F) {
	for _, tc := range scanCases {
		f.Add(tc.body)
	}
	f.Fuzz(checkSameOperations)
}
