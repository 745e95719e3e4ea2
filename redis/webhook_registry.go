package redis

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/ext/events/webhook"
)

// maxUpdateAttempts bounds the optimistic transactions an Update tries
// before it gives up on a subscription that other writers keep changing.
const maxUpdateAttempts = 100

// noExpiryScore is the index score of a subscription without expiry: later
// than any expiry in Unix milliseconds, and exact in a float64.
const noExpiryScore = float64(1 << 53)

// A WebhookRegistry is a webhook.Registry on Redis, shared by every
// instance of a server on the same Redis and KeyPrefix:
//
//   - a subscription is the string KeyPrefix + "webhook:{" + id + "}"
//     holding its stored form (JSON, its secrets as their text), set to
//     expire in Redis when its grant does and kept with no expiry when the
//     grant has none, so that it survives a restart of every instance;
//   - the subscriptions to an event type are indexed by the sorted set
//     KeyPrefix + "webhook:name:" + hash(name), scored by expiry (Unix
//     milliseconds); List drops the expired ones;
//   - a verification is the string KeyPrefix + "webhook:verified:" +
//     hash(principal, url) holding its time, with no expiry;
//   - a claim (Claim) is the string KeyPrefix + "webhook:{" + id +
//     "}:claim:" + hash(eventID), set with SET NX PX.
//
// The keys of one subscription share the hash tag {id}, so they live in
// one slot of a Redis Cluster. Update is an optimistic transaction (WATCH,
// MULTI), retried when another instance wrote the subscription first.
// Stored values are read as untrusted input: size-limited by
// Options.MaxMessageBytes and decoded strictly, so that a value that does
// not decode is an error naming the subscription.
type WebhookRegistry struct{ b *Backend }

var _ webhook.Registry = (*WebhookRegistry)(nil)

// WebhookRegistry returns the backend's registry of webhook subscriptions,
// for the webhook deliveries of the events extension.
func (b *Backend) WebhookRegistry() *WebhookRegistry { return &WebhookRegistry{b} }

// subKey is the key of subscription id.
func (r *WebhookRegistry) subKey(id string) string { return r.b.key("webhook", "{"+id+"}") }

// indexKey is the key of the index of the subscriptions to name.
func (r *WebhookRegistry) indexKey(name string) string {
	return r.b.key("webhook", "name", digest(name))
}

// digest returns a hash of fields, each prefixed by its length, in hex: a
// key part for text that may hold any byte.
func digest(fields ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, f := range fields {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// notFound is the error of an unknown or expired subscription.
func notFound(id string) error { return fmt.Errorf("%w: %s", webhook.ErrSubscriptionNotFound, id) }

// expiryMillis returns the Unix milliseconds of t, rounded up so that a
// key does not expire before t.
func expiryMillis(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.After(time.UnixMilli(ms)) {
		ms++
	}
	return ms
}

// indexScore is the index score of a subscription with grant g.
func indexScore(g webhook.Grant) float64 {
	if g.NoExpiry() {
		return noExpiryScore
	}
	return float64(expiryMillis(g.RefreshBefore))
}

// write queues the commands that store s as data: SET with the grant's
// expiry (PXAT), or DEL if the grant has expired.
func (r *WebhookRegistry) write(ctx context.Context, p goredis.Pipeliner, s *webhook.Subscription, data []byte) {
	key := r.subKey(s.ID)
	switch {
	case s.Grant.NoExpiry():
		p.Set(ctx, key, data, 0)
	case s.Grant.Expired(time.Now()):
		p.Del(ctx, key)
	default:
		p.Do(ctx, "set", key, data, "pxat", strconv.FormatInt(expiryMillis(s.Grant.RefreshBefore), 10))
	}
}

// index adds s to the index of its event type, with its expiry as score.
func (r *WebhookRegistry) index(ctx context.Context, s *webhook.Subscription) error {
	err := r.b.client.ZAdd(ctx, r.indexKey(s.Key.Name), goredis.Z{Score: indexScore(s.Grant), Member: s.ID}).Err()
	if err != nil {
		return fmt.Errorf("mcp/redis: indexing webhook subscription %s: %w", s.ID, err)
	}
	return nil
}

// Put stores a copy of sub under sub.ID, which must be sub.Key.ID(),
// replacing any subscription stored there, then indexes it.
func (r *WebhookRegistry) Put(ctx context.Context, sub *webhook.Subscription) error {
	if !validID(sub.ID) || sub.Key.ID() != sub.ID {
		return fmt.Errorf("%w: a webhook subscription's id must be its key's id", errBadID)
	}
	data, err := encodeSubscription(sub, r.b.opts.MaxMessageBytes)
	if err != nil {
		return err
	}
	if _, err := r.b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		r.write(ctx, p, sub, data)
		return nil
	}); err != nil {
		return fmt.Errorf("mcp/redis: storing webhook subscription %s: %w", sub.ID, err)
	}
	return r.index(ctx, sub)
}

// load decodes the stored value of subscription id read by get, treating
// an expired grant as absent.
func (r *WebhookRegistry) load(id string, get *goredis.StringCmd) (*webhook.Subscription, error) {
	data, err := get.Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp/redis: loading webhook subscription %s: %w", id, err)
	}
	s, err := decodeSubscription(id, data, r.b.opts.MaxMessageBytes)
	if err != nil {
		return nil, err
	}
	if s.Grant.Expired(time.Now()) {
		return nil, notFound(id)
	}
	return s, nil
}

// Get returns a copy of the subscription with the given id.
func (r *WebhookRegistry) Get(ctx context.Context, id string) (*webhook.Subscription, error) {
	if !validID(id) {
		return nil, notFound(id)
	}
	return r.load(id, r.b.client.Get(ctx, r.subKey(id)))
}

// Update changes the subscription with the given id in an optimistic
// transaction: it reads the subscription under WATCH, calls update with
// it, and writes it in MULTI/EXEC, starting again if another writer
// changed the subscription in between. When the grant changed, the index
// entry's expiry follows.
func (r *WebhookRegistry) Update(ctx context.Context, id string, update func(*webhook.Subscription) error) error {
	if !validID(id) {
		return notFound(id)
	}
	key := r.subKey(id)
	var stored *webhook.Subscription
	var updateErr error
	var regranted bool
	txf := func(tx *goredis.Tx) error {
		s, err := r.load(id, tx.Get(ctx, key))
		if err != nil {
			return err
		}
		was := s.Grant
		if updateErr = update(s); updateErr != nil {
			return updateErr
		}
		if s.Key.ID() != id {
			return errors.New("update changed its key")
		}
		s.ID = id
		data, err := encodeSubscription(s, r.b.opts.MaxMessageBytes)
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			r.write(ctx, p, s, data)
			return nil
		})
		stored, regranted = s, !s.Grant.RefreshBefore.Equal(was.RefreshBefore)
		return err
	}
	for range maxUpdateAttempts {
		err := r.b.client.Watch(ctx, txf, key)
		switch {
		case err == nil && regranted:
			return r.index(ctx, stored)
		case err == nil:
			return nil
		case errors.Is(err, goredis.TxFailedErr):
			continue // another instance wrote it first: read it again
		case updateErr != nil || errors.Is(err, webhook.ErrSubscriptionNotFound):
			return err // update's own error, or no such subscription
		}
		return fmt.Errorf("mcp/redis: updating webhook subscription %s: %w", id, err)
	}
	return fmt.Errorf("mcp/redis: updating webhook subscription %s: still conflicting after %d attempts", id, maxUpdateAttempts)
}

// Delete removes the subscription with the given id and its index entry.
// A stored value that does not decode is removed too, its index entry left
// for List to skip.
func (r *WebhookRegistry) Delete(ctx context.Context, id string) error {
	if !validID(id) {
		return notFound(id)
	}
	data, err := r.b.client.GetDel(ctx, r.subKey(id)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return notFound(id)
	}
	if err != nil {
		return fmt.Errorf("mcp/redis: deleting webhook subscription %s: %w", id, err)
	}
	s, err := decodeSubscription(id, data, r.b.opts.MaxMessageBytes)
	if err != nil {
		r.b.opts.Logger.Warn("mcp/redis: deleted a webhook subscription that did not decode", "id", id, "error", err)
		return nil
	}
	if err := r.b.client.ZRem(ctx, r.indexKey(s.Key.Name), id).Err(); err != nil {
		return fmt.Errorf("mcp/redis: unindexing webhook subscription %s: %w", id, err)
	}
	if s.Grant.Expired(time.Now()) {
		return notFound(id)
	}
	return nil
}

// List returns copies of the subscriptions to the event type name: it
// drops the index entries whose expiry has passed and reads the others.
// A subscription deleted or expired in Redis meanwhile is skipped; one
// whose stored value does not decode is an error.
func (r *WebhookRegistry) List(ctx context.Context, name string) ([]*webhook.Subscription, error) {
	index := r.indexKey(name)
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	var ids *goredis.StringSliceCmd
	if _, err := r.b.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.ZRemRangeByScore(ctx, index, "-inf", now)
		ids = p.ZRangeByScore(ctx, index, &goredis.ZRangeBy{Min: "(" + now, Max: "+inf"})
		return nil
	}); err != nil {
		return nil, fmt.Errorf("mcp/redis: listing webhook subscriptions: %w", err)
	}
	var listed []string
	var gets []*goredis.StringCmd
	if _, err := r.b.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, id := range ids.Val() {
			if validID(id) {
				listed = append(listed, id)
				gets = append(gets, p.Get(ctx, r.subKey(id)))
			}
		}
		return nil
	}); err != nil && !errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("mcp/redis: listing webhook subscriptions: %w", err)
	}
	var out []*webhook.Subscription
	for i, get := range gets {
		s, err := r.load(listed[i], get)
		switch {
		case errors.Is(err, webhook.ErrSubscriptionNotFound):
			continue
		case err != nil:
			return nil, err
		}
		if s.Key.Name == name {
			out = append(out, s)
		}
	}
	return out, nil
}

// Verification returns when url was verified for principal, or the zero
// time.
func (r *WebhookRegistry) Verification(ctx context.Context, principal, url string) (time.Time, error) {
	text, err := r.b.client.Get(ctx, r.b.key("webhook", "verified", digest(principal, url))).Result()
	if errors.Is(err, goredis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("mcp/redis: loading a webhook verification: %w", err)
	}
	if len(text) > len(time.RFC3339Nano)+8 {
		return time.Time{}, fmt.Errorf("mcp/redis: stored webhook verification of %d bytes is not a time", len(text))
	}
	at, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return time.Time{}, fmt.Errorf("mcp/redis: decoding a webhook verification: %w", err)
	}
	return at, nil
}

// SetVerification records, with no expiry, that url was verified for
// principal at at; the zero time deletes the record.
func (r *WebhookRegistry) SetVerification(ctx context.Context, principal, url string, at time.Time) error {
	key := r.b.key("webhook", "verified", digest(principal, url))
	var err error
	if at.IsZero() {
		err = r.b.client.Del(ctx, key).Err()
	} else {
		err = r.b.client.Set(ctx, key, at.Format(time.RFC3339Nano), 0).Err()
	}
	if err != nil {
		return fmt.Errorf("mcp/redis: storing a webhook verification: %w", err)
	}
	return nil
}
