// Package webhook delivers the events of the events extension
// ("io.modelcontextprotocol/events") by webhook, and receives them: the
// server side's signing, retries, endpoint verification and subscription
// bookkeeping, and the client side's endpoint. A Service is the
// events.Server's ServerOptions.Webhooks: it serves events/subscribe and
// events/unsubscribe, and its Run delivers the server's occurrences; the
// client subscribes with Subscribe or KeepSubscribed.
//
// # Wire format
//
// A delivery is a POST of application/json (an EventOccurrence, or a
// control envelope with a top-level "type": gap, terminated, verification)
// with the headers of Standard Webhooks and the extension's own:
//
//	webhook-id: <eventId, or msg_<type>_<random> for an envelope>
//	webhook-timestamp: <Unix seconds>
//	webhook-signature: v1,<base64 HMAC-SHA256(key, id "." timestamp "." body)>
//	X-MCP-Subscription-Id: <the subscription's id>
//
// The key is the bytes a "whsec_" Secret decodes to (24 to 64), never the
// text. During a secret rotation the header carries one signature per
// secret, space-separated, and a receiver accepts any that matches. Bodies
// are at most 256 KiB.
//
// # Server side
//
// A server derives a subscription's id from its Key (principal, URL, event
// name, canonical arguments), grants its lifetime with a GrantPolicy, keeps
// it in a Registry (NewMemoryRegistry, or a shared backend that passes
// package webhooktest), verifies the endpoint with VerifyEndpoint before the
// first event, and delivers with a Sender, recording each outcome in the
// subscription's DeliveryStatus.
//
// A Service does all of that, and holds to the rest of the extension's
// server rules: per-principal quotas (ServiceOptions.MaxSubscriptions and
// MaxSubscriptionsPerType, answered ResourceExhausted), authorization
// checked again at delivery time (ServiceOptions.Authorize; a refusal ends
// the subscription with a terminated envelope carrying Forbidden), a
// no-expiry subscription dropped after sustained failure
// (DropFailingAfter), and endpoint consent without a challenge through a
// server allowlist (VerifiedPrefixes) or the origin's receiver document
// (TrustReceiverDocuments, ReceiverDocumentPath).
//
// A Sender signs every attempt afresh, retries with exponential backoff
// (not after 410 or 413), reports failures as the extension's categories
// only, and guards against server-side request forgery: https only, and at
// every delivery it resolves the host, refuses addresses that are not
// globally routable (loopback, private, link-local, and every other
// special-purpose block, in IPv4 and IPv6 forms), connects only to an
// address it checked while keeping the URL's Host and TLS server name, and
// never follows a redirect. SenderOptions.InsecureAllowPrivateAndHTTP turns
// the address and scheme checks off, for tests and trusted deployments;
// Sender.AllowOriginForTesting lifts them for one origin only.
//
// # Client side
//
// A Receiver is the http.Handler of a client's endpoint: it answers the
// challenge, verifies the timestamp and signature of every delivery,
// acknowledges replays without handing them on again, answers 503 for a
// subscription it does not know yet, and hands verified events and
// envelopes to the program.
package webhook
