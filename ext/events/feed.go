package events

import (
	"context"
	"encoding/json"
	"slices"
)

// ReadMatching reads the occurrences of the event type req.Name for a
// subscription with args (checked arguments, as Webhooks.Subscribe gets
// them): one read of the Log, its records filtered by the type's Match.
// Next, Truncated and More are the Log's, so Next moves past records the
// filter dropped. It is how webhook delivery (ext/events/webhook) reads
// the log. An unknown type is a NotFound error, a type that does not offer
// mode an Unsupported one, a malformed cursor an InvalidParams one.
func (es *Server) ReadMatching(ctx context.Context, mode string, args json.RawMessage, req ReadRequest) (ReadResult, error) {
	t := es.lookup(req.Name)
	if t == nil {
		return ReadResult{}, errEventNotFound(req.Name)
	}
	if !t.offers(mode) {
		return ReadResult{}, errDeliveryUnsupported(req.Name, mode)
	}
	if req.Max < 1 {
		req.Max = es.opts.MaxEvents
	}
	r, err := es.opts.Log.Read(ctx, req)
	if err != nil {
		return ReadResult{}, logError(err)
	}
	matches := t.filter(args)
	r.Records = slices.DeleteFunc(r.Records, func(rec Record) bool { return !matches(rec.Data) })
	return r, nil
}

// Changed returns a channel that is closed at the next occurrence of the
// event type name (or earlier): Log.Changed of the Server's Log.
func (es *Server) Changed(name string) <-chan struct{} { return es.opts.Log.Changed(name) }

// TypeNames returns the names of the event types that offer delivery mode,
// in name order.
func (es *Server) TypeNames(mode string) []string {
	es.mu.RLock()
	defer es.mu.RUnlock()
	var names []string
	for name, t := range es.types {
		if t.offers(mode) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Occurrence returns the wire form of a record read from the Log, with its
// cursor: the body of a webhook delivery.
func (r *Record) Occurrence() *Occurrence { return occurrence(r) }
