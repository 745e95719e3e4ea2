package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/mcp"
)

// ServiceOptions configure NewService; nil means defaults.
type ServiceOptions struct {
	// Registry keeps the subscriptions (default NewMemoryRegistry).
	Registry Registry
	// Sender delivers and verifies (default NewSender(nil): https only,
	// globally routable addresses only).
	Sender *Sender
	// Grants decides subscriptions' lifetimes (zero: the defaults).
	Grants GrantPolicy
	// SecretGrace is how long a replaced secret keeps signing (default
	// DefaultSecretGrace).
	SecretGrace time.Duration
	// Principal returns the authenticated principal of a request, "" if
	// there is none (then subscribe and unsubscribe are Forbidden). The
	// default is mcp.PrincipalFromContext, which the auth module's
	// RequireBearerToken sets for every request it authenticates, in every
	// protocol era: a digest of the token's issuer, subject and client.
	Principal func(ctx context.Context, ss *mcp.ServerSession) string
	// Rescan is how often the delivery loop reads the Registry for
	// subscriptions made on other instances and events appended by them
	// (default 1 s).
	Rescan time.Duration
	// BatchSize bounds the occurrences one read of the log takes for one
	// subscription (default 32).
	BatchSize int
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Settled, if set, is told of each message settled for a subscription:
	// delivered (err nil) or abandoned, once its cursor and
	// DeliveryStatus are recorded.
	Settled func(subscriptionID, messageID string, err error)
	// OnError, if set, is told of errors of the delivery loop that no
	// request sees (a Registry that fails).
	OnError func(err error)
	// MaxSubscriptions bounds the webhook subscriptions one principal
	// holds over all event types (default DefaultMaxSubscriptions; negative
	// for no limit). A subscribe past it is answered ResourceExhausted
	// (data.limit "subscriptions", data.max); a refresh is never refused.
	// Counts are read from the Registry, so they hold across the instances
	// sharing it, up to the subscribes that instances accept at the same
	// moment.
	MaxSubscriptions int
	// MaxSubscriptionsPerType bounds, per event type name, the
	// subscriptions one principal holds to that type, beside
	// MaxSubscriptions (nil: no limit of their own).
	MaxSubscriptionsPerType map[string]int
	// Authorize, if set, checks again at delivery time that principal may
	// still receive the events of sub: before the first delivery of each
	// subscription (on each instance), and then at most every
	// ReauthorizeEvery. nil means no check beyond the one at subscribe. An
	// error wrapping ErrAccessRevoked ends the subscription: it is removed
	// and sent a terminated envelope with Forbidden (data.reason "access
	// revoked"). Any other error is told to OnError and holds delivery back
	// until a later check permits it.
	Authorize func(ctx context.Context, principal string, sub *Subscription) error
	// ReauthorizeEvery is how long a permission of Authorize holds for one
	// subscription (default DefaultReauthorizeEvery).
	ReauthorizeEvery time.Duration
	// DropFailingAfter is how long the deliveries of a subscription that
	// never expires may keep failing, once suspended for sustained failure
	// (over 95% of at least 100 attempts in an hour), before the
	// subscription is removed and sent a terminated envelope with
	// CallbackEndpointError (data.reason: the last failure's category).
	// Default DefaultDropFailingAfter; negative: never. A subscription
	// with a grant is not dropped: it ends unless refreshed, and a refresh
	// resumes it.
	DropFailingAfter time.Duration
	// VerifiedPrefixes are callback URL prefixes the server trusts to want
	// deliveries (the extension's server-configured allowlist), such as
	// "https://hooks.example.com/mcp/": a URL with a prefix's scheme, host
	// and port whose path begins with the prefix's path, without "." or
	// ".." segments, needs no challenge. End a path prefix with "/".
	// Entries that are not absolute http(s) URLs are ignored.
	VerifiedPrefixes []string
	// TrustReceiverDocuments lets an https origin's receiver document
	// (ReceiverDocumentPath, read by Sender.ReceiverDeclares) stand for
	// the consent of the URLs under the prefixes it declares, instead of
	// a challenge. Other URLs still take the challenge.
	TrustReceiverDocuments bool
}

// A Service is webhook delivery for an events.Server: set it as
// events.ServerOptions.Webhooks, which serves events/subscribe and
// events/unsubscribe through it, and call Run with that Server to deliver.
// Make one with NewService.
type Service struct {
	opts ServiceOptions

	mu    sync.Mutex
	poked chan struct{}   // closed and replaced when a subscription changes
	es    *events.Server  // set by Run
	ran   chan struct{}   // closed once Run has set es
	seen  map[string]bool // type names subscribed to or offered

	claimTTL time.Duration // how long a claimed delivery is the claimer's: its Sender's whole retry window
	admitMu  sync.Mutex    // held from the last quota check of a subscribe to its store
	prefixes []*url.URL    // ServiceOptions.VerifiedPrefixes, parsed
}

var _ events.Webhooks = (*Service)(nil)

// NewService returns a Service with the given options.
func NewService(opts *ServiceOptions) *Service {
	s := &Service{poked: make(chan struct{}), ran: make(chan struct{}), seen: make(map[string]bool)}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Registry == nil {
		o.Registry = NewMemoryRegistry(o.Now)
	}
	if o.Sender == nil {
		o.Sender = NewSender(nil)
	}
	s.claimTTL = o.Sender.maxElapsed + o.Sender.attemptTimeout + time.Minute
	o.SecretGrace = positive(o.SecretGrace, DefaultSecretGrace)
	o.Rescan = positive(o.Rescan, time.Second)
	s.prefixes = parsePrefixes(o.VerifiedPrefixes)
	o.ReauthorizeEvery = positive(o.ReauthorizeEvery, DefaultReauthorizeEvery)
	if o.DropFailingAfter == 0 {
		o.DropFailingAfter = DefaultDropFailingAfter
	}
	o.BatchSize = positive(o.BatchSize, 32)
	if o.MaxSubscriptions == 0 {
		o.MaxSubscriptions = DefaultMaxSubscriptions
	}
	if o.Principal == nil {
		o.Principal = func(ctx context.Context, _ *mcp.ServerSession) string { return mcp.PrincipalFromContext(ctx) }
	}
	return s
}

// poke wakes the delivery loop: a subscription was made or removed.
func (s *Service) poke() {
	s.mu.Lock()
	close(s.poked)
	s.poked = make(chan struct{})
	s.mu.Unlock()
}

// pokes returns the channel the next poke closes.
func (s *Service) pokes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.poked
}

// SubscribeResult is the result of events/subscribe.
type SubscribeResult struct {
	// ResultType is "complete".
	ResultType string `json:"resultType,omitempty"`
	// ID is the subscription's id, sent as X-MCP-Subscription-Id.
	ID string `json:"id"`
	// RefreshBefore is the granted lifetime: the subscription ends unless
	// refreshed before it; null (NoExpiry) for no expiry.
	RefreshBefore Grant `json:"refreshBefore"`
	// Cursor is the delivery watermark, safe to persist; nil is null.
	Cursor *string `json:"cursor"`
	// Truncated tells that delivery starts later than the cursor asked.
	Truncated bool `json:"truncated"`
	// DeliveryStatus is present on a refresh only.
	DeliveryStatus *DeliveryStatus `json:"deliveryStatus,omitempty"`
}

// Subscribe serves events/subscribe for t (its arguments already checked
// by the events.Server): it needs a principal, a https URL and a valid
// secret, and a principal within its quotas for a new subscription; it
// verifies the endpoint with a challenge unless (principal, url) is
// verified already or the endpoint consented otherwise (VerifiedPrefixes,
// TrustReceiverDocuments), and creates or refreshes the subscription.
func (s *Service) Subscribe(ctx context.Context, ss *mcp.ServerSession, t *events.EventType, p *events.SubscribeParams) (any, error) {
	principal := s.opts.Principal(ctx, ss)
	if principal == "" {
		return nil, rpcError(events.CodeForbidden, "Forbidden: webhook subscriptions need an authenticated principal", map[string]string{"reason": "unauthenticated"})
	}
	if p.Delivery == nil {
		return nil, rpcError(mcp.CodeInvalidParams, "missing delivery: the webhook's url and secret", nil)
	}
	if p.Delivery.Mode != "" && p.Delivery.Mode != events.DeliveryWebhook {
		return nil, rpcError(mcp.CodeInvalidParams, fmt.Sprintf("delivery.mode must be %q", events.DeliveryWebhook), nil)
	}
	if _, err := s.opts.Sender.CheckURL(p.Delivery.URL); err != nil {
		return nil, rpcError(mcp.CodeInvalidParams, "invalid delivery.url: "+err.Error(), nil)
	}
	secret, err := ParseSecret(p.Delivery.Secret)
	if err != nil {
		return nil, rpcError(mcp.CodeInvalidParams, "invalid delivery.secret: "+err.Error(), nil)
	}
	var ttl TTL
	if len(p.TTLMs) > 0 {
		if err := ttl.UnmarshalJSON(p.TTLMs); err != nil {
			return nil, rpcError(mcp.CodeInvalidParams, "invalid ttlMs: "+err.Error(), nil)
		}
	}
	key, err := NewKey(principal, p.Delivery.URL, t.Name, p.Arguments)
	if err != nil {
		return nil, rpcError(mcp.CodeInvalidParams, "invalid arguments: "+err.Error(), nil)
	}
	id := key.ID()
	if err := s.admit(ctx, principal, t.Name, id); err != nil { // before the challenge: no POST for a refused subscribe
		return nil, err
	}
	if err := s.verify(ctx, principal, p.Delivery.URL, id, secret); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		reason := CategoryOf(err)
		if reason == "" {
			reason = CategoryChallengeFailed
		}
		return nil, rpcError(events.CodeCallbackEndpointError, "CallbackEndpointError: the endpoint failed verification ("+string(reason)+")", map[string]string{"reason": string(reason)})
	}
	now := s.opts.Now()
	sub := &Subscription{ID: id, Key: key, Secret: secret, Grant: s.opts.Grants.Grant(now, ttl)}
	truncated, err := s.startCursor(ctx, sub, p)
	if err != nil {
		return nil, err
	}
	stored, refreshed, err := s.store(ctx, sub, now)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.seen[t.Name] = true
	s.mu.Unlock()
	s.poke()
	res := &SubscribeResult{ResultType: "complete", ID: id, RefreshBefore: stored.Grant, Cursor: stored.Cursor, Truncated: truncated}
	if refreshed {
		res.DeliveryStatus = &stored.Status
	}
	return res, nil
}

// store upserts sub after checking the quotas again, so that the
// subscribes of one principal that this instance serves at the same time
// do not pass them together.
func (s *Service) store(ctx context.Context, sub *Subscription, now time.Time) (*Subscription, bool, error) {
	s.admitMu.Lock()
	defer s.admitMu.Unlock()
	if err := s.admit(ctx, sub.Key.Principal, sub.Key.Name, sub.ID); err != nil {
		return nil, false, err
	}
	return Upsert(ctx, s.opts.Registry, sub, now, s.opts.SecretGrace)
}

// startCursor sets sub.Cursor to where delivery begins: the request's
// cursor (moved forward to the log's oldest record still there, or past
// maxAgeMs, and then truncated), or for a null cursor the head of the log,
// unless the subscription exists: a refresh with a null cursor keeps its
// watermark (sub.Cursor stays nil).
func (s *Service) startCursor(ctx context.Context, sub *Subscription, p *events.SubscribeParams) (truncated bool, err error) {
	req := events.ReadRequest{Name: sub.Key.Name, Max: 1}
	if p.Cursor == nil {
		if _, err := s.opts.Registry.Get(ctx, sub.ID); err == nil {
			return false, nil
		} else if !errors.Is(err, ErrSubscriptionNotFound) {
			return false, fmt.Errorf("webhook: reading %s: %w", sub.ID, err)
		}
	} else {
		req.After = *p.Cursor
		if p.MaxAgeMs != nil {
			if *p.MaxAgeMs < 0 {
				return false, rpcError(mcp.CodeInvalidParams, "maxAgeMs must not be negative", nil)
			}
			req.Since = s.opts.Now().Add(-time.Duration(*p.MaxAgeMs) * time.Millisecond)
		}
	}
	es := s.server()
	if es == nil {
		return false, errors.New("webhook: the Service is not running (call Run with the events.Server)")
	}
	r, err := es.ReadMatching(ctx, events.DeliveryWebhook, json.RawMessage(sub.Key.Arguments), req)
	if err != nil {
		return false, err
	}
	cursor := r.Next // the head for a null cursor; after a gap, where delivery goes on
	if p.Cursor != nil && !r.Truncated {
		cursor = *p.Cursor
	}
	sub.Cursor = &cursor
	return r.Truncated, nil
}

// Unsubscribe serves events/unsubscribe: it removes the principal's
// subscription with the request's name, arguments and URL, or answers
// NotFound (data.kind "subscription").
func (s *Service) Unsubscribe(ctx context.Context, ss *mcp.ServerSession, p *events.UnsubscribeParams) (any, error) {
	principal := s.opts.Principal(ctx, ss)
	if principal == "" {
		return nil, rpcError(events.CodeForbidden, "Forbidden: webhook subscriptions need an authenticated principal", map[string]string{"reason": "unauthenticated"})
	}
	if p.Delivery == nil || p.Delivery.URL == "" {
		return nil, rpcError(mcp.CodeInvalidParams, "missing delivery.url", nil)
	}
	key, err := NewKey(principal, p.Delivery.URL, p.Name, p.Arguments)
	if err != nil {
		return nil, rpcError(mcp.CodeInvalidParams, "invalid arguments: "+err.Error(), nil)
	}
	if err := s.opts.Registry.Delete(ctx, key.ID()); err != nil {
		if errors.Is(err, ErrSubscriptionNotFound) {
			return nil, rpcError(events.CodeNotFound, "NotFound: no such webhook subscription", map[string]string{"kind": "subscription"})
		}
		return nil, fmt.Errorf("webhook: unsubscribing: %w", err)
	}
	s.poke()
	return struct{}{}, nil
}

// rpcError returns a JSON-RPC error with data.
func rpcError(code mcp.ErrorCode, message string, data any) *mcp.JSONRPCError {
	e := &mcp.JSONRPCError{Code: code, Message: message}
	if data != nil {
		if b, err := strictjson.Marshal(data); err == nil {
			e.Data = b
		}
	}
	return e
}
