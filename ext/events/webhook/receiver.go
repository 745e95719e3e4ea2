package webhook

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// maxHeaderID bounds the webhook-id and X-MCP-Subscription-Id a Receiver
// accepts.
const maxHeaderID = 256

// A Message is one verified delivery, as a Receiver hands it on: an event
// occurrence (Type "") or a control envelope (gap, terminated, or a type
// this package does not know, passed on as is). Its content comes from the
// server and is untrusted data, to be handled as a tool result is.
type Message struct {
	// SubscriptionID is X-MCP-Subscription-Id.
	SubscriptionID string
	// ID is webhook-id: the eventId of an event.
	ID string
	// Timestamp is webhook-timestamp.
	Timestamp time.Time
	// Type is the envelope type, or "" for an event occurrence.
	Type string
	// EventID and Name are the eventId and name of an event occurrence.
	EventID, Name string
	// Cursor is the cursor of an event occurrence or a gap envelope: nil
	// for null or absent, which must not be persisted.
	Cursor *string
	// Error is the error of a terminated envelope.
	Error *EnvelopeError
	// Body is the raw body, for decoding the event's data.
	Body []byte
}

// ReceiverOptions configure a Receiver. The zero value gives the defaults.
type ReceiverOptions struct {
	// Tolerance is how far webhook-timestamp may lie from now, either way
	// (default DefaultTolerance, 5 min).
	Tolerance time.Duration
	// MaxBodyBytes bounds a delivery's body; larger ones get 413 (default
	// MaxBodyBytes, 256 KiB).
	MaxBodyBytes int64
	// ReplayCapacity bounds how many deliveries are remembered for replay
	// detection (default DefaultReplayCapacity). When that many are
	// remembered and none has expired, new deliveries get 503 until one
	// does, rather than a replay passing.
	ReplayCapacity int
	// Now is the receiver's clock (default time.Now).
	Now func() time.Time
}

// A Receiver is the http.Handler of a client's webhook endpoint. It answers
// the verification challenge, checks the timestamp and signature of every
// delivery, acknowledges a replayed webhook-id without handing it on again,
// answers 503 for a subscription it does not know (the subscribe/delivery
// race: the server retries), limits the body, and hands every verified
// event and envelope to its handler. The handler's error makes the answer
// 500, so that the server retries; a nil error makes it 204, so return
// only once the message is persisted or forwarded.
type Receiver struct {
	handle    func(context.Context, *Message) error
	tolerance time.Duration
	maxBody   int64
	now       func() time.Time
	replay    *replayCache

	mu      sync.RWMutex
	subs    map[string][]Secret
	pending map[*Secret]struct{}
}

var _ http.Handler = (*Receiver)(nil)

// NewReceiver returns a Receiver that hands verified messages to handle.
func NewReceiver(handle func(ctx context.Context, m *Message) error, opts *ReceiverOptions) *Receiver {
	var o ReceiverOptions
	if opts != nil {
		o = *opts
	}
	r := &Receiver{
		handle:    handle,
		tolerance: positive(o.Tolerance, DefaultTolerance),
		maxBody:   positive(o.MaxBodyBytes, MaxBodyBytes),
		now:       o.Now,
		replay:    newReplayCache(positive(o.ReplayCapacity, DefaultReplayCapacity)),
		subs:      map[string][]Secret{},
		pending:   map[*Secret]struct{}{},
	}
	if r.now == nil {
		r.now = time.Now
	}
	return r
}

// Add makes the Receiver accept deliveries for the subscription id, signed
// with any of secrets (replacing those it had). Call it with the id of the
// subscribe result, and with both secrets while rotating.
func (r *Receiver) Add(subscriptionID string, secrets ...Secret) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subs[subscriptionID] = append([]Secret(nil), secrets...)
}

// Remove makes the Receiver answer 503 to deliveries for the subscription
// id, as for any unknown subscription.
func (r *Receiver) Remove(subscriptionID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, subscriptionID)
}

// Expect prepares the Receiver for the challenge of a subscribe in flight,
// whose id the client does not know yet: a verification envelope signed
// with secret is answered whatever its subscription id, and that id is then
// added with secret. Call done once the subscribe has returned.
func (r *Receiver) Expect(secret Secret) (done func()) {
	p := &secret
	r.mu.Lock()
	r.pending[p] = struct{}{}
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.pending, p)
		r.mu.Unlock()
	}
}

// secretsFor returns the secrets of a known subscription, or the pending
// ones (known false).
func (r *Receiver) secretsFor(id string) (secrets []Secret, known bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if s, ok := r.subs[id]; ok {
		return s, true
	}
	for p := range r.pending {
		secrets = append(secrets, *p)
	}
	return secrets, false
}

// receivedBody is what a Receiver reads of a body.
type receivedBody struct {
	Type      *string        `json:"type"`
	EventID   string         `json:"eventId"`
	Name      string         `json:"name"`
	Cursor    *string        `json:"cursor"`
	Challenge string         `json:"challenge"`
	Error     *EnvelopeError `json:"error"`
}

// ServeHTTP receives one delivery.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, "the body must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	id, subID := req.Header.Get(HeaderID), req.Header.Get(HeaderSubscriptionID)
	if id == "" || subID == "" || len(id) > maxHeaderID || len(subID) > maxHeaderID {
		http.Error(w, "missing or oversized "+HeaderID+" or "+HeaderSubscriptionID, http.StatusBadRequest)
		return
	}
	tsValue := req.Header.Get(HeaderTimestamp)
	ts, err := CheckTimestamp(tsValue, r.now(), r.tolerance)
	if err != nil {
		http.Error(w, "bad "+HeaderTimestamp, http.StatusBadRequest)
		return
	}
	body, status := r.readBody(w, req)
	if status != 0 {
		http.Error(w, http.StatusText(status), status)
		return
	}
	secrets, known := r.secretsFor(subID)
	if len(secrets) == 0 {
		http.Error(w, "unknown subscription", http.StatusServiceUnavailable)
		return
	}
	matched, err := r.verify(id, tsValue, req.Header.Get(HeaderSignature), body, secrets, known)
	if err != nil {
		code := http.StatusUnauthorized
		if !known {
			code = http.StatusServiceUnavailable // not one of ours, or not yet
		}
		http.Error(w, "signature does not verify", code)
		return
	}
	var rb receivedBody
	if err := strictjson.Unmarshal(body, &rb); err != nil {
		http.Error(w, "the body is not a JSON object of the events extension", http.StatusBadRequest)
		return
	}
	if rb.Type != nil && *rb.Type == EnvelopeVerification {
		r.answerChallenge(w, subID, rb.Challenge, matched, known)
		return
	}
	if !known {
		http.Error(w, "unknown subscription", http.StatusServiceUnavailable)
		return
	}
	m, ok := message(subID, id, ts, body, &rb)
	if !ok {
		http.Error(w, "the body lacks a field its type requires", http.StatusBadRequest)
		return
	}
	r.dispatch(req.Context(), w, m)
}

// readBody reads the body within the limit, or returns the status to
// answer.
func (r *Receiver) readBody(w http.ResponseWriter, req *http.Request) ([]byte, int) {
	if req.ContentLength > r.maxBody {
		return nil, http.StatusRequestEntityTooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, r.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, http.StatusRequestEntityTooLarge
		}
		return nil, http.StatusBadRequest
	}
	return body, 0
}

// verify checks the signature against secrets and returns the secret that
// matched (needed only for a pending one).
func (r *Receiver) verify(id, ts, sig string, body []byte, secrets []Secret, known bool) (Secret, error) {
	if known {
		return Secret{}, VerifySignature(id, ts, sig, body, secrets...)
	}
	for _, s := range secrets {
		if err := VerifySignature(id, ts, sig, body, s); err == nil {
			return s, nil
		}
	}
	return Secret{}, ErrSignatureMismatch
}

// answerChallenge echoes a verified challenge, and adds the subscription
// of a pending secret.
func (r *Receiver) answerChallenge(w http.ResponseWriter, subID, challenge string, matched Secret, known bool) {
	b, err := strictjson.Marshal(challengeEcho{Challenge: challenge})
	if challenge == "" || err != nil {
		http.Error(w, "the challenge is empty", http.StatusBadRequest)
		return
	}
	if !known {
		r.mu.Lock()
		if _, ok := r.subs[subID]; !ok {
			r.subs[subID] = []Secret{matched}
		}
		r.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// message builds the Message of a verified body, or reports that a field
// its type requires is missing.
func message(subID, id string, ts time.Time, body []byte, rb *receivedBody) (*Message, bool) {
	m := &Message{SubscriptionID: subID, ID: id, Timestamp: ts, Cursor: rb.Cursor, Body: body}
	if rb.Type == nil {
		m.EventID, m.Name = rb.EventID, rb.Name
		return m, m.EventID != "" && m.Name != ""
	}
	m.Type = *rb.Type
	switch m.Type {
	case EnvelopeTerminated:
		m.Error, m.Cursor = rb.Error, nil
		return m, m.Error != nil
	case EnvelopeGap:
		return m, m.Cursor != nil
	}
	return m, true
}

// dispatch hands m to the handler once per subscription and webhook-id
// within the tolerance window, and answers.
func (r *Receiver) dispatch(ctx context.Context, w http.ResponseWriter, m *Message) {
	key := m.SubscriptionID + "\x00" + m.ID
	now := r.now()
	expires := now
	if m.Timestamp.After(expires) {
		expires = m.Timestamp
	}
	switch r.replay.begin(key, expires.Add(r.tolerance), now) {
	case replayDone:
		w.WriteHeader(http.StatusNoContent) // already handled: acknowledge, do not hand on again
		return
	case replayBusy:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "this delivery is being processed", http.StatusConflict)
		return
	case replayFull:
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many deliveries to remember", http.StatusServiceUnavailable)
		return
	}
	handled := false
	defer func() {
		if !handled { // the handler failed or panicked: let a retry through
			r.replay.abort(key)
		}
	}()
	if err := r.handle(ctx, m); err != nil {
		http.Error(w, "the message was not accepted", http.StatusInternalServerError)
		return
	}
	handled = true
	r.replay.finish(key)
	w.WriteHeader(http.StatusNoContent)
}
