package mcp

import (
	"encoding/json"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// FuzzCompleteAdded checks the resultType splice of added methods' results:
// valid JSON stays valid, and an object without resultType gains
// "resultType":"complete" and keeps its other members.
func FuzzCompleteAdded(f *testing.F) {
	for _, s := range []string{`{}`, `{"text":"x"}`, `{"resultType":"task","a":1}`, `[1,2]`, `"s"`, `{"a":{"resultType":1}}`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var before any
		if strictjson.Unmarshal([]byte(in), &before) != nil {
			return
		}
		out, err := completeAdded(json.RawMessage(in))
		if err != nil {
			return // the encoder refused it, as it would the result
		}
		raw := out.(json.RawMessage)
		var after any
		if err := strictjson.Unmarshal(raw, &after); err != nil {
			t.Fatalf("%s became invalid JSON %s: %v", in, raw, err)
		}
		obj, isObj := before.(map[string]any)
		if !isObj {
			return
		}
		got := after.(map[string]any)
		if _, had := obj["resultType"]; !had {
			if got["resultType"] != "complete" {
				t.Fatalf("%s: resultType %v", raw, got["resultType"])
			}
			delete(got, "resultType")
		}
		if len(got) != len(obj) {
			t.Fatalf("%s became %s", in, raw)
		}
	})
}
