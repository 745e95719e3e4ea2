package mcpserver

import (
	"container/list"
	"encoding/json"
	"sync"

	"github.com/gomcp/sdk/mcp"
)

// DefaultEncodedBytes is how many bytes of encoded tool results a server
// keeps by default (Options.EncodedBytes).
const DefaultEncodedBytes = 32 << 20

// encodedOverhead is what an encoded result costs beyond its text and
// structured content: the entry, its list element and map slot.
const encodedOverhead = 256

// encodedResults keeps the tool results of answers already encoded, by
// answer: the *service.DocResult or *service.SearchResult the service
// returned. The service returns the same answer, the same pointer, to
// the same question for as long as the answer holds (it renders an
// answer once per package entry, and an entry is replaced when its
// resolution expires), and never changes an answer it returned; so a
// result kept for an answer is the result encoding it again would give,
// and a new answer is a new key. Results are bounded by bytes, the least
// recently used dropped first. It is safe for concurrent use.
type encodedResults struct {
	mu       sync.Mutex
	max      int64
	used     int64
	byAnswer map[any]*list.Element // of *encodedResult
	order    *list.List            // most recently used first
}

// encodedResult is one answer's encoded tool result.
type encodedResult struct {
	answer any
	res    mcp.CallToolResult
	size   int64
}

// newEncodedResults returns a cache of max bytes; nil (nothing kept)
// when max is negative.
func newEncodedResults(max int64) *encodedResults {
	if max < 0 {
		return nil
	}
	if max == 0 {
		max = DefaultEncodedBytes
	}
	return &encodedResults{max: max, byAnswer: map[any]*list.Element{}, order: list.New()}
}

// get returns a copy of the result kept for answer: the session
// completes the result it is given (its resultType), so each call has
// its own.
func (c *encodedResults) get(answer any) (*mcp.CallToolResult, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byAnswer[answer]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	res := el.Value.(*encodedResult).res
	return &res, true
}

// put keeps res, the encoding of answer, dropping the least recently
// used results beyond the bound. A result larger than the bound is not
// kept.
func (c *encodedResults) put(answer any, res *mcp.CallToolResult) {
	if c == nil {
		return
	}
	size := int64(encodedOverhead)
	for _, ct := range res.Content {
		size += int64(len(ct.Text))
	}
	if raw, ok := res.StructuredContent.(json.RawMessage); ok {
		size += int64(len(raw))
	}
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byAnswer[answer]; ok {
		return // encoded by a concurrent call too
	}
	c.byAnswer[answer] = c.order.PushFront(&encodedResult{answer: answer, res: *res, size: size})
	c.used += size
	for c.used > c.max {
		last := c.order.Back()
		e := c.order.Remove(last).(*encodedResult)
		delete(c.byAnswer, e.answer)
		c.used -= e.size
	}
}
