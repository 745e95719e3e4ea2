package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/mcp"
)

// conformancePrincipal is the principal an unauthenticated connection acts
// as under -conformance-events, so that the suite can subscribe webhooks
// to a server it does not authenticate to.
const conformancePrincipal = "conformance-tester"

// tickQuota is how many webhook subscriptions to test.tick one principal
// may hold; events_conformance_quota reports it. It stays below
// webhook.DefaultChallengesPerHost, so that a harness reaching it on one
// host within a minute is refused by the quota, not the challenge limit.
const tickQuota = 5

// controlTimeout bounds the deliveries a control makes (a gap or
// terminated envelope), so that an endpoint that does not answer cannot
// hold the call through the Sender's retries.
const controlTimeout = 20 * time.Second

// webhookFixture is test.tick's webhook delivery: the Service, with the
// Sender and Registry it uses, and, under -conformance-events, the
// diagnostic controls of the Events conformance suite.
type webhookFixture struct {
	svc         *webhook.Service
	sender      *webhook.Sender
	registry    webhook.Registry
	conformance bool
	es          *events.Server // set by newServerWith
}

// fixtureOptions configure a webhookFixture; nil means defaults.
type fixtureOptions struct {
	// sender delivers and verifies (nil: the default Sender, https only,
	// globally routable addresses only).
	sender *webhook.Sender
	// registry keeps the subscriptions (nil: in memory); on Redis, the
	// one every instance shares.
	registry webhook.Registry
	// settled, if set, is the Service's Settled (for tests).
	settled func(subscriptionID, messageID string, err error)
}

// newWebhookFixture returns the webhook delivery of test.tick. With
// conformance, an unauthenticated request acts as conformancePrincipal;
// without, it has no principal, and subscribe answers Forbidden as the
// extension requires.
func newWebhookFixture(conformance bool, opts *fixtureOptions) *webhookFixture {
	var o fixtureOptions
	if opts != nil {
		o = *opts
	}
	if o.sender == nil {
		o.sender = webhook.NewSender(nil)
	}
	if o.registry == nil {
		o.registry = webhook.NewMemoryRegistry(nil)
	}
	f := &webhookFixture{sender: o.sender, registry: o.registry, conformance: conformance}
	f.svc = webhook.NewService(&webhook.ServiceOptions{
		Registry:                f.registry,
		Sender:                  f.sender,
		Principal:               f.principal,
		MaxSubscriptionsPerType: map[string]int{tickEvent: tickQuota},
		TrustReceiverDocuments:  true, // an https origin may consent with /.well-known/mcp-webhook-receiver.json
		Settled:                 o.settled,
	})
	return f
}

// actingAs is the context key of the principal events_conformance_subscribe_as
// subscribes for.
type actingAs struct{}

// principal is the Service's Principal: the one subscribe_as names, the
// session's owner, or under -conformance-events the fixed test principal.
func (f *webhookFixture) principal(ctx context.Context, _ *mcp.ServerSession) string {
	if p, ok := ctx.Value(actingAs{}).(string); ok {
		return p
	}
	if p := mcp.SessionOwnerFromContext(ctx); p != "" {
		return p
	}
	if f.conformance {
		return conformancePrincipal
	}
	return ""
}

// idArgs are the arguments of the controls about one subscription.
type idArgs struct {
	// ID is the subscription's id, as events/subscribe answered it.
	ID string `json:"id"`
}

// conformanceControls are the diagnostic tools of the Events conformance
// suite (events_conformance_*), which let a harness provoke what no
// request can: permit its loopback receiver, send a gap or terminated
// envelope, read a subscription's state and the quota, subscribe as
// another principal.
func (f *webhookFixture) conformanceControls() []*mcp.ServerTool {
	return []*mcp.ServerTool{
		mcp.NewTool("events_conformance_allow_callback_origin", "Permit webhook callbacks to one origin (scheme://host:port) past the https and address checks, for this process's life",
			func(_ context.Context, _ *mcp.ServerSession, in struct {
				Origin string `json:"origin"`
			}) ([]*mcp.Content, error) {
				if err := f.sender.AllowOriginForTesting(in.Origin); err != nil {
					return nil, err
				}
				return answer("allowed " + in.Origin), nil
			}),
		mcp.NewTool("events_conformance_webhook_gap", "Send a gap envelope to one webhook subscription; answers the cursor it carried",
			func(ctx context.Context, _ *mcp.ServerSession, in idArgs) ([]*mcp.Content, error) {
				cursor, err := f.sendGap(ctx, in.ID)
				if err != nil {
					return nil, err
				}
				return answer(cursor), nil
			}),
		mcp.NewTool("events_conformance_webhook_terminate", "End one webhook subscription, sending it a terminated envelope",
			func(ctx context.Context, _ *mcp.ServerSession, in idArgs) ([]*mcp.Content, error) {
				ctx, cancel := context.WithTimeout(ctx, controlTimeout)
				defer cancel()
				if err := f.svc.Terminate(ctx, in.ID, "terminated by events_conformance_webhook_terminate"); err != nil {
					return nil, err
				}
				return answer("terminated"), nil
			}),
		mcp.NewTool("events_conformance_quota", `Report the per-type subscription cap: {"name": <event type>, "max": <n>}`,
			func(context.Context, *mcp.ServerSession, struct{}) ([]*mcp.Content, error) {
				b, err := json.Marshal(struct {
					Name string `json:"name"`
					Max  int    `json:"max"`
				}{tickEvent, f.svc.MaxSubscriptionsFor(tickEvent)})
				if err != nil {
					return nil, err
				}
				return answer(string(b)), nil
			}),
		mcp.NewTool("events_conformance_subscription_exists", "Report whether a webhook subscription is registered: true or false",
			func(ctx context.Context, _ *mcp.ServerSession, in idArgs) ([]*mcp.Content, error) {
				state, err := f.state(ctx, in.ID)
				if err != nil {
					return nil, err
				}
				return answer(fmt.Sprint(state != "absent")), nil
			}),
		mcp.NewTool("events_conformance_subscription_state", "Report a webhook subscription's state: active, suspended or absent",
			func(ctx context.Context, _ *mcp.ServerSession, in idArgs) ([]*mcp.Content, error) {
				state, err := f.state(ctx, in.ID)
				if err != nil {
					return nil, err
				}
				return answer(state), nil
			}),
		mcp.NewTool("events_conformance_subscribe_as", "Subscribe a webhook on another principal's behalf; answers the subscription's id",
			func(ctx context.Context, ss *mcp.ServerSession, in subscribeAsArgs) ([]*mcp.Content, error) {
				id, err := f.subscribeAs(ctx, ss, in)
				if err != nil {
					return nil, err
				}
				return answer(id), nil
			}),
	}
}

// answer is the content of a control's answer.
func answer(s string) []*mcp.Content { return []*mcp.Content{mcp.NewTextContent(s)} }

// state returns the state of subscription id: active, suspended or absent.
func (f *webhookFixture) state(ctx context.Context, id string) (string, error) {
	sub, err := f.registry.Get(ctx, id)
	switch {
	case errors.Is(err, webhook.ErrSubscriptionNotFound):
		return "absent", nil
	case err != nil:
		return "", err
	case !sub.Status.Active():
		return "suspended", nil
	}
	return "active", nil
}

// sendGap sends subscription id a gap envelope carrying its watermark, the
// cursor its receiver goes on from, and returns that cursor.
func (f *webhookFixture) sendGap(ctx context.Context, id string) (string, error) {
	sub, err := f.registry.Get(ctx, id)
	if err != nil {
		return "", err
	}
	if sub.Cursor == nil {
		return "", fmt.Errorf("subscription %s has no cursor yet", id)
	}
	body, err := webhook.GapBody(*sub.Cursor)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, controlTimeout)
	defer cancel()
	if _, err := f.sender.Deliver(ctx, &webhook.Delivery{
		URL: sub.Key.URL, SubscriptionID: id, ID: webhook.NewEnvelopeID(webhook.EnvelopeGap), Body: body, Secrets: sub.Secrets(time.Now()),
	}); err != nil {
		return "", fmt.Errorf("the gap envelope was not delivered: %s", webhook.CategoryOf(err))
	}
	return *sub.Cursor, nil
}

// subscribeAsArgs are the arguments of events_conformance_subscribe_as.
type subscribeAsArgs struct {
	// Principal is whom the subscription is for.
	Principal string `json:"principal"`
	// Name is the event type (test.tick if empty).
	Name string `json:"name,omitempty"`
	// Arguments are the subscription's arguments ({} if absent).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// URL and Secret are delivery.url and delivery.secret.
	URL    string `json:"url"`
	Secret string `json:"secret"`
}

// subscribeAs subscribes as events/subscribe does, for in.Principal.
func (f *webhookFixture) subscribeAs(ctx context.Context, ss *mcp.ServerSession, in subscribeAsArgs) (string, error) {
	if in.Principal == "" {
		return "", errors.New("principal is required")
	}
	if in.Name == "" {
		in.Name = tickEvent
	}
	if len(in.Arguments) == 0 {
		in.Arguments = json.RawMessage(`{}`)
	}
	if f.es == nil || !slices.Contains(f.es.TypeNames(events.DeliveryWebhook), in.Name) {
		return "", fmt.Errorf("no event type %q with webhook delivery", in.Name)
	}
	res, err := f.svc.Subscribe(context.WithValue(ctx, actingAs{}, in.Principal), ss,
		&events.EventType{Name: in.Name, Delivery: []string{events.DeliveryWebhook}},
		&events.SubscribeParams{Name: in.Name, Arguments: in.Arguments, Delivery: &events.WebhookTarget{Mode: events.DeliveryWebhook, URL: in.URL, Secret: in.Secret}})
	if err != nil {
		return "", err
	}
	sr, ok := res.(*webhook.SubscribeResult)
	if !ok {
		return "", fmt.Errorf("unexpected subscribe result %T", res)
	}
	return sr.ID, nil
}
