package mcp

import (
	"reflect"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// The direct decoding of tools/call results (result_decode.go) must give
// exactly what the general decoder gives, or give up.

var callToolResultJSONCases = []string{
	`{"content":[{"type":"text","text":"hello"}]}`,
	`{"resultType":"complete","content":[{"type":"text","text":"a"},{"text":"b\u00e9\n","type":"text"}],"isError":true}`,
	`{"content":[],"isError":false,"extra":{"x":[1,2]}}`,
	`{"content":[{"type":"text","text":"1"},{"type":"text","text":"2"},{"type":"text","text":"3"},{"type":"text","text":"4"},{"type":"text","text":"5"}]}`,
	`{}`,
	`{"content":null}`,
	`{"content":[{"type":"text"}]}`,
	`{"content":[{"type":"text","text":5}]}`,
	`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
	`{"content":[{"type":"text","text":"a","annotations":{"priority":1}}]}`,
	`{"content":[{"type":"text","text":"a","_meta":{"k":1}}]}`,
	`{"content":[{"type":"te\u0078t","text":"a"}]}`,
	`{"content":[{"Type":"text","text":"a"}]}`,
	`{"content":[],"structuredContent":{"a":1}}`,
	`{"content":[],"_meta":{"k":1}}`,
	`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"resultType":"complete","content":[{"type":"text","text":"hi"}]}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":{"progressToken":[1]}}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":null}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":5}`,
	`{"content":[],"isError":null}`,
	`{"content":[],"resultType":5}`,
	`{"content":{}}`,
	`[1]`,
}

// checkCallToolResultDecoding decodes result both ways, if a response
// carrying it decodes, and fails t if the direct path disagrees with the
// general decoder. It reports whether the direct path took it.
func checkCallToolResultDecoding(t *testing.T, result []byte) bool {
	t.Helper()
	msg, err := jsonrpc2.Decode(append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":`), result...), '}'))
	if err != nil {
		return false
	}
	raw := msg.(*jsonrpc2.Response).Result
	var fast CallToolResult
	if !fast.decodeDirect(raw) {
		if !reflect.DeepEqual(fast, CallToolResult{}) {
			t.Fatalf("direct path gave up on %s but left %+v", result, fast)
		}
		return false
	}
	var slow CallToolResult
	if err := slow.decodeGeneral(raw); err != nil {
		t.Fatalf("direct path accepts %s, the general decoder refuses it: %v", result, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoding %s:\ndirect  %#v\ngeneral %#v", result, fast, slow)
	}
	return true
}

func TestCallToolResultDirectDecodingAgrees(t *testing.T) {
	taken := 0
	for _, in := range callToolResultJSONCases {
		if checkCallToolResultDecoding(t, []byte(in)) {
			taken++
		}
	}
	if taken < 5 {
		t.Errorf("direct path took %d cases; it must take plain text results", taken)
	}
}

func FuzzCallToolResultDecoding(f *testing.F) {
	for _, in := range callToolResultJSONCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, result []byte) {
		checkCallToolResultDecoding(t, result)
	})
}
