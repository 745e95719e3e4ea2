package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/mcp"
)

// server returns the events.Server Run delivers for, or nil.
func (s *Service) server() *events.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.es
}

// Run delivers the occurrences of es's webhook types to their
// subscriptions until ctx is done, and returns ctx's error once every
// delivery it started has stopped. Each subscription has a worker of its
// own that sends one occurrence at a time, in log order, and moves the
// subscription's cursor (the watermark) past an occurrence only when it is
// settled: delivered, or abandoned after the Sender's retries (recorded in
// the subscription's DeliveryStatus). Occurrences dropped from the log
// before delivery give a gap envelope with the fresh cursor; a type that is
// removed or no longer offers webhook delivery ends its subscriptions with
// a terminated envelope. Call Run once, with the Server whose
// ServerOptions.Webhooks is s.
func (s *Service) Run(ctx context.Context, es *events.Server) error {
	s.mu.Lock()
	if s.es != nil {
		s.mu.Unlock()
		return errors.New("webhook: Service.Run called twice")
	}
	s.es = es
	close(s.ran)
	s.mu.Unlock()

	var wg sync.WaitGroup
	workers := make(map[string]chan struct{}) // subscription id → closed when its worker ends
	defer wg.Wait()
	for {
		poked := s.pokes()
		for _, name := range s.names(ctx, es) {
			subs, err := s.opts.Registry.List(ctx, name)
			if err != nil {
				s.report(fmt.Errorf("webhook: listing the subscriptions of %s: %w", name, err))
				continue
			}
			for _, sub := range subs {
				if done, ok := workers[sub.ID]; ok {
					select {
					case <-done:
					default:
						continue // running
					}
				}
				done := make(chan struct{})
				workers[sub.ID] = done
				wg.Add(1)
				go func(id, name string) {
					defer wg.Done()
					defer close(done)
					s.work(ctx, es, id, name)
				}(sub.ID, name)
			}
		}
		t := time.NewTimer(s.opts.Rescan)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-poked:
		case <-t.C:
		}
		t.Stop()
	}
}

// names returns the types to deliver: es's webhook types, and every type
// subscribed to through s since Run began, so that the subscriptions of a
// type es no longer offers are found, and ended, by their workers.
func (s *Service) names(ctx context.Context, es *events.Server) []string {
	if ctx.Err() != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range es.TypeNames(events.DeliveryWebhook) {
		s.seen[name] = true
	}
	names := make([]string, 0, len(s.seen))
	for name := range s.seen {
		names = append(names, name)
	}
	return names
}

// report passes an error of the loop to OnError.
func (s *Service) report(err error) {
	if s.opts.OnError != nil && err != nil {
		s.opts.OnError(err)
	}
}

// work delivers to the subscription id until it is gone or ctx is done.
func (s *Service) work(ctx context.Context, es *events.Server, id, name string) {
	var auth authState
	for ctx.Err() == nil {
		changed := es.Changed(name)
		progressed, err := s.step(ctx, es, id, &auth)
		if errors.Is(err, ErrSubscriptionNotFound) {
			return
		}
		if err != nil {
			s.report(err)
		}
		if progressed && err == nil {
			continue
		}
		if !s.wait(ctx, changed) {
			return
		}
	}
}

// wait waits for changed, a poke or the rescan interval; false when ctx is
// done.
func (s *Service) wait(ctx context.Context, changed <-chan struct{}) bool {
	t := time.NewTimer(s.opts.Rescan)
	defer t.Stop()
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(changed)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.pokes())},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.C)},
	}
	chosen, _, _ := reflect.Select(cases)
	return chosen != 0
}

// step reads the log after the subscription's cursor and delivers what it
// finds, one occurrence at a time, once ServiceOptions.Authorize permits
// it. It reports whether the cursor moved.
func (s *Service) step(ctx context.Context, es *events.Server, id string, auth *authState) (bool, error) {
	sub, err := s.opts.Registry.Get(ctx, id)
	if err != nil {
		return false, err
	}
	if !sub.Status.Active() {
		if dropDue(sub, s.opts.Now(), s.opts.DropFailingAfter) {
			return false, s.drop(ctx, sub)
		}
		return false, nil
	}
	if sub.Cursor == nil {
		return false, nil
	}
	r, err := es.ReadMatching(ctx, events.DeliveryWebhook, json.RawMessage(sub.Key.Arguments),
		events.ReadRequest{Name: sub.Key.Name, After: *sub.Cursor, Max: s.opts.BatchSize})
	if err != nil {
		if events.KindOf(err) == events.KindNotFound || events.KindOf(err) == events.KindUnsupported {
			return false, s.terminate(ctx, sub, err)
		}
		return false, fmt.Errorf("webhook: reading the log for %s: %w", id, err)
	}
	if r.Truncated || len(r.Records) > 0 {
		if err := s.authorize(ctx, sub, auth); err != nil {
			return false, err
		}
	}
	expected := *sub.Cursor // the watermark as this step moves it
	if r.Truncated {
		body, err := GapBody(r.Next)
		if err != nil {
			return false, err
		}
		if err := s.send(ctx, sub, expected, NewEnvelopeID(EnvelopeGap), deliveryClaim(sub, expected, "gap"), body, r.Next); err != nil {
			return false, claimedElsewhere(err)
		}
		return true, nil
	}
	for i := range r.Records {
		rec := &r.Records[i]
		body, err := strictjson.Marshal(rec.Occurrence())
		if err != nil {
			return false, fmt.Errorf("webhook: encoding %s: %w", rec.EventID, err)
		}
		if err := s.send(ctx, sub, expected, rec.EventID, deliveryClaim(sub, expected, rec.EventID), body, rec.Cursor); err != nil {
			return false, claimedElsewhere(err)
		}
		expected = rec.Cursor
		if sub, err = s.opts.Registry.Get(ctx, id); err != nil { // a refresh may have rotated the secret
			return false, err
		}
		if sub.Cursor == nil || *sub.Cursor != expected {
			return true, nil // a refresh set a replay point: read again from it
		}
	}
	if r.Next == expected {
		return len(r.Records) > 0, nil
	}
	// Records the filter dropped: the watermark moves past them too.
	err = s.opts.Registry.Update(ctx, id, func(stored *Subscription) error {
		advance(stored, expected, r.Next)
		return nil
	})
	return err == nil, err
}

// errClaimed is send's error for a message another instance claimed: it
// delivers and settles it, and this one reads the cursor it leaves.
var errClaimed = errors.New("webhook: claimed by another instance")

// claimedElsewhere is step's error for err: nil for errClaimed (this step
// ends without moving the cursor; the next one starts where the claiming
// instance left it), err otherwise.
func claimedElsewhere(err error) error {
	if errors.Is(err, errClaimed) {
		return nil
	}
	return err
}

// deliveryClaim names one delivery of message (an event id, or "gap") to sub
// after its watermark prev, as every instance reading the same state of sub
// names it: the delivery status is part of it, since every settled
// delivery changes it, so that the same event delivered again after a
// replay the client asked for is a new claim.
func deliveryClaim(sub *Subscription, prev, message string) string {
	st := &sub.Status
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %d %d %d %d %d", prev, message, st.LastDeliveryAt.UnixNano(),
		st.WindowStart.UnixNano(), st.WindowAttempts, st.WindowFailures, len(st.LastError))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// send delivers one message to sub and settles it: the cursor moves from
// prev to cursor (see advance) and the outcome is recorded, whether it was delivered or
// abandoned. Only a stopped ctx leaves it unsettled. Of the instances
// sharing the Registry, the one that claims claim first sends it; the
// others get errClaimed.
func (s *Service) send(ctx context.Context, sub *Subscription, prev, msgID, claim string, body []byte, cursor string) error {
	claimed, err := s.opts.Registry.Claim(ctx, sub.ID, claim, s.claimTTL)
	if err != nil {
		return fmt.Errorf("webhook: claiming %s for %s: %w", msgID, sub.ID, err)
	}
	if !claimed {
		return errClaimed
	}
	_, derr := s.opts.Sender.Deliver(ctx, &Delivery{
		URL: sub.Key.URL, SubscriptionID: sub.ID, ID: msgID, Body: body, Secrets: sub.Secrets(s.opts.Now()),
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	at := s.opts.Now()
	err = s.opts.Registry.Update(ctx, sub.ID, func(stored *Subscription) error {
		advance(stored, prev, cursor)
		stored.Status.Record(at, derr)
		return nil
	})
	if err != nil {
		return err
	}
	if derr != nil {
		s.report(fmt.Errorf("webhook: delivery of %s to %s abandoned: %w", msgID, sub.ID, derr))
	}
	if s.opts.Settled != nil {
		s.opts.Settled(sub.ID, msgID, derr)
	}
	return nil
}

// advance moves stored's watermark from prev, where the delivery began, to
// next, unless a refresh moved it meanwhile (a replay point the client
// asked for, which wins).
func advance(stored *Subscription, prev, next string) {
	if stored.Cursor != nil && *stored.Cursor != prev {
		return
	}
	stored.Cursor = &next
}

// terminate ends sub (its type is gone or no longer offers webhook
// delivery, its access was revoked, or its deliveries kept failing): it
// removes the subscription, then sends a terminated envelope with cause
// (once, not retried beyond the Sender's attempts), and returns an error
// wrapping ErrSubscriptionNotFound. Of several instances ending the same
// subscription, only the one whose removal succeeds sends the envelope.
func (s *Service) terminate(ctx context.Context, sub *Subscription, cause error) error {
	e := EnvelopeError{Code: int64(mcp.CodeInternalError), Message: cause.Error()}
	var rpc *mcp.JSONRPCError
	if errors.As(cause, &rpc) {
		e = EnvelopeError{Code: int64(rpc.Code), Message: rpc.Message, Data: rpc.Data}
	}
	body, err := TerminatedBody(e)
	if err != nil {
		return err
	}
	if err := s.opts.Registry.Delete(ctx, sub.ID); err != nil {
		if errors.Is(err, ErrSubscriptionNotFound) {
			return err
		}
		return fmt.Errorf("webhook: removing %s: %w", sub.ID, err)
	}
	s.poke()
	_, derr := s.opts.Sender.Deliver(ctx, &Delivery{
		URL: sub.Key.URL, SubscriptionID: sub.ID, ID: NewEnvelopeID(EnvelopeTerminated), Body: body, Secrets: sub.Secrets(s.opts.Now()),
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if derr != nil {
		s.report(fmt.Errorf("webhook: the terminated envelope of %s was not delivered: %w", sub.ID, derr))
	}
	return fmt.Errorf("webhook: %s ended: %w", sub.ID, ErrSubscriptionNotFound)
}
