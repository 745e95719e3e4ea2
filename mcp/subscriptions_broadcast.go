package mcp

import (
	"bytes"
	"sync"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/internal/strictjson"
)

// A broadcastEvent is a notification sent to many listen streams. For the
// streams written directly (hijacked connections, responseStream.notifyDirect) it is
// encoded once, as an SSE event cut where the subscription id goes: each
// stream's event is prefix, its own subscription id, suffix. Streams
// written through their queue (and sending middleware) get a copy of the
// params each.
type broadcastEvent struct {
	method string
	// fresh returns a copy of the params, whose Meta the stream sets.
	fresh func() any

	once           sync.Once
	prefix, suffix []byte // nil when the event could not be cut
}

// spliceMark stands for the subscription id while the event is encoded.
const spliceMark = "\x00gomcp-subscription-id\x00"

// encode cuts the event at the subscription id, once.
func (b *broadcastEvent) encode() {
	b.once.Do(func() {
		params := b.fresh()
		m := metaOf(params)
		if m == nil {
			return
		}
		m.SubscriptionID = spliceMark
		n, err := jsonrpc2.NewNotification(b.method, params)
		if err != nil {
			return
		}
		msg, err := jsonrpc2.AppendMessage(nil, n)
		if err != nil {
			return
		}
		mark, err := strictjson.Marshal(spliceMark)
		if err != nil || bytes.Count(msg, mark) != 1 {
			return
		}
		event := appendSSEEvent(nil, "message", "", msg)
		i := bytes.Index(event, mark)
		b.prefix, b.suffix = event[:i], event[i+len(mark):]
	})
}

// appendEvent appends the event for a stream whose subscription id
// encodes as id, and reports whether the event could be cut.
func (b *broadcastEvent) appendEvent(dst, id []byte) ([]byte, bool) {
	b.encode()
	if b.prefix == nil {
		return dst, false
	}
	dst = append(dst, b.prefix...)
	dst = append(dst, id...)
	return append(dst, b.suffix...), true
}

// subscriptionIDJSON returns the encoded subscription id of l, made once;
// the caller holds l.mu.
func (l *listener) subscriptionIDJSON() []byte {
	if l.idJSON == nil {
		b, err := strictjson.Marshal(l.id)
		if err != nil {
			return nil
		}
		l.idJSON = b
	}
	return l.idJSON
}
