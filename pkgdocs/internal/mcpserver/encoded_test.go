package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestEncodedResultsBoundedByBytes: results are kept within the bound,
// the least recently used dropped first, one larger than the bound never;
// each get is a copy the session may complete; a nil cache keeps nothing.
func TestEncodedResultsBoundedByBytes(t *testing.T) {
	result := func(n int) *mcp.CallToolResult {
		text := strings.Repeat("x", n)
		return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(text)}, StructuredContent: json.RawMessage(`{"markdown":"` + text + `"}`)}
	}
	size := int64(2*1000 + len(`{"markdown":""}`) + encodedOverhead) // of result(1000)
	c := newEncodedResults(3 * size)
	a, b, d, e, huge := new(int), new(int), new(int), new(int), new(int)
	for _, k := range []*int{a, b, d} {
		c.put(k, result(1000))
	}
	if _, ok := c.get(a); !ok { // a is now the most recently used
		t.Fatal("a is not kept")
	}
	c.put(e, result(1000)) // drops b, the least recently used
	c.put(huge, result(4000))
	for k, want := range map[*int]bool{a: true, b: false, d: true, e: true, huge: false} {
		if _, ok := c.get(k); ok != want {
			t.Errorf("kept %v, want %v", ok, want)
		}
	}
	if c.used != 3*size || len(c.byAnswer) != 3 || c.order.Len() != 3 {
		t.Errorf("%d bytes in %d results (%d in order), want %d in 3", c.used, len(c.byAnswer), c.order.Len(), 3*size)
	}
	r1, _ := c.get(a)
	r1.ResultType = "complete"
	if r2, _ := c.get(a); r2.ResultType != "" || r2 == r1 {
		t.Error("get returned the kept result, not a copy")
	}
	var none *encodedResults = newEncodedResults(-1)
	none.put(a, result(10))
	if _, ok := none.get(a); ok || none != nil {
		t.Error("a cache of negative size keeps results")
	}
}
