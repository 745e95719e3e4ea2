package jsonrpc2

// pendingCalls tracks the outgoing calls awaiting a response. A connection
// rarely has more than a few in flight, so a slice scanned linearly beats a
// map: it costs an idle connection a few dozen bytes instead of a map's
// buckets. The zero value is empty; callers hold the Conn's mutex.
type pendingCalls []pendingCall

type pendingCall struct {
	id ID
	ch chan *Response
}

func (p *pendingCalls) add(id ID, ch chan *Response) {
	*p = append(*p, pendingCall{id, ch})
}

// take removes the call with id and returns its channel.
func (p *pendingCalls) take(id ID) (chan *Response, bool) {
	calls := *p
	for i := range calls {
		if calls[i].id == id {
			ch := calls[i].ch
			last := len(calls) - 1
			calls[i] = calls[last]
			calls[last] = pendingCall{}
			*p = calls[:last]
			return ch, true
		}
	}
	return nil, false
}

// drain removes and returns every call.
func (p *pendingCalls) drain() []pendingCall {
	calls := *p
	*p = nil
	return calls
}
