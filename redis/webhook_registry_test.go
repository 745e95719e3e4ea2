package redis_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/ext/events/webhook/webhooktest"
	"github.com/gomcp/sdk/redis"
)

// TestWebhookRegistry runs the webhook.Registry contract tests against
// the Redis registry (miniredis, or GOMCP_REDIS_ADDR).
func TestWebhookRegistry(t *testing.T) {
	clock := &miniClock{}
	webhooktest.TestRegistry(t, func(t *testing.T) webhook.Registry {
		addr, m := server(t)
		clock.m = m
		return newBackend(t, addr).WebhookRegistry()
	}, clock)
}

// newSubscription returns a subscription of alice to name at url with a
// fresh secret and grant g.
func newSubscription(t testing.TB, name, url string, g webhook.Grant) *webhook.Subscription {
	t.Helper()
	k, err := webhook.NewKey("alice", url, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &webhook.Subscription{ID: k.ID(), Key: k, Secret: webhook.GenerateSecret(), Grant: g}
}

// TestWebhookRegistryRestart: after every instance is gone, a new one on
// the same Redis holds the subscriptions without expiry, with their
// secrets and the verification of their endpoint, and not the expired
// ones, which Redis itself dropped.
func TestWebhookRegistryRestart(t *testing.T) {
	addr, m := server(t)
	ctx := t.Context()
	const ttl = 300 * time.Millisecond
	forever := newSubscription(t, "email.received", "https://hooks.example.com/forever", webhook.Grant{})
	forever.Rotate(webhook.GenerateSecret(), time.Now(), time.Hour)
	short := newSubscription(t, "email.received", "https://hooks.example.com/short", webhook.Grant{RefreshBefore: time.Now().Add(ttl)})
	verifiedAt := time.Now().Truncate(time.Millisecond)

	first := newBackend(t, addr)
	for _, s := range []*webhook.Subscription{forever, short} {
		if err := first.WebhookRegistry().Put(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.WebhookRegistry().SetVerification(ctx, "alice", forever.Key.URL, verifiedAt); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, addr)
	defer c.Close()
	if d, err := c.PTTL(ctx, "test:webhook:{"+short.ID+"}").Result(); err != nil || d <= 0 || d > ttl {
		t.Fatalf("the expiring subscription has PTTL %v, %v; want its grant's (0, %v]", d, err, ttl)
	}
	(&miniClock{m}).Advance(t, 2*ttl) // a real Redis expires keys on its own clock
	if d, err := c.PTTL(ctx, "test:webhook:{"+forever.ID+"}").Result(); err != nil || d != -1 {
		t.Fatalf("the subscription without expiry has PTTL %v, %v; want none (-1)", d, err)
	}
	if n, err := c.Exists(ctx, "test:webhook:{"+short.ID+"}").Result(); err != nil || n != 0 {
		t.Fatalf("the expired subscription is still in Redis (%d, %v)", n, err)
	}

	second := newBackend(t, addr).WebhookRegistry()
	got, err := second.Get(ctx, forever.ID)
	if err != nil {
		t.Fatalf("after a restart: %v", err)
	}
	if !got.Secret.Equal(forever.Secret) || !got.PreviousSecret.Equal(forever.PreviousSecret) || got.Key != forever.Key {
		t.Fatalf("after a restart the subscription differs: %+v", got)
	}
	if _, err := second.Get(ctx, short.ID); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Fatalf("the expired subscription after a restart: %v, want ErrSubscriptionNotFound", err)
	}
	list, err := second.List(ctx, "email.received")
	if err != nil || len(list) != 1 || list[0].ID != forever.ID {
		t.Fatalf("List after a restart = %d subscriptions, %v; want the one without expiry", len(list), err)
	}
	if at, err := second.Verification(ctx, "alice", forever.Key.URL); err != nil || !at.Equal(verifiedAt) {
		t.Fatalf("Verification after a restart = %v, %v; want %v", at, err, verifiedAt)
	}
}

// TestWebhookRegistryTwoInstances: two instances, each with its own
// client, share subscriptions: an update on one is seen by the other,
// concurrent updates from both are all kept, and of the two delivery loops
// claiming the same events, each event is delivered by exactly one.
func TestWebhookRegistryTwoInstances(t *testing.T) {
	addr, _ := server(t)
	testTwoInstances(t, newBackend(t, addr).WebhookRegistry(), newBackend(t, addr).WebhookRegistry())
}

// testTwoInstances is TestWebhookRegistryTwoInstances on instances a and
// b of one Redis.
func testTwoInstances(t *testing.T, a, b *redis.WebhookRegistry) {
	ctx := t.Context()
	s := newSubscription(t, "email.received", "https://hooks.example.com/a", webhook.Grant{RefreshBefore: time.Now().Add(time.Hour)})
	if err := a.Put(ctx, s); err != nil {
		t.Fatal(err)
	}

	const perInstance = 15
	var wg sync.WaitGroup
	for _, r := range []*redis.WebhookRegistry{a, b} {
		for range perInstance {
			wg.Go(func() {
				if err := r.Update(ctx, s.ID, func(sub *webhook.Subscription) error {
					sub.Status.WindowAttempts++
					return nil
				}); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	got, err := b.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.WindowAttempts != 2*perInstance {
		t.Fatalf("%d updates from two instances left the count at %d", 2*perInstance, got.Status.WindowAttempts)
	}

	const events = 50
	var sent [events]atomic.Int32
	for _, r := range []*redis.WebhookRegistry{a, b} {
		wg.Go(func() {
			for i := range events {
				won, err := r.Claim(ctx, s.ID, fmt.Sprintf("evt_%d", i), time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if won {
					sent[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range sent {
		if n := sent[i].Load(); n != 1 {
			t.Errorf("event %d was delivered %d times by two instances, want once", i, n)
		}
	}
}

// TestWebhookRegistryDistrustsRedis: a stored value that is not what the
// registry wrote is an error naming the subscription, never a panic or a
// subscription built from it.
func TestWebhookRegistryDistrustsRedis(t *testing.T) {
	addr, _ := server(t)
	ctx := context.Background()
	s := newSubscription(t, "email.received", "https://hooks.example.com/a", webhook.Grant{})
	other := newSubscription(t, "email.received", "https://hooks.example.com/b", webhook.Grant{})
	good := fmt.Sprintf(`{"v":1,"id":%q,"principal":"alice","url":%q,"name":"email.received","arguments":"{}","secret":%q,"cursor":null,"status":{}}`,
		s.ID, s.Key.URL, s.Secret.Reveal())
	tests := []struct {
		name, value, want string
	}{
		{"not JSON", "garbage", "decoding"},
		{"duplicate member", strings.Replace(good, `"v":1,`, `"v":1,"v":1,`, 1), "decoding"},
		{"another format", strings.Replace(good, `"v":1`, `"v":2`, 1), "format 2"},
		{"another id", strings.Replace(good, s.ID, other.ID, 1), "does not match"},
		{"a key that is not the id's", strings.Replace(good, `"principal":"alice"`, `"principal":"mallory"`, 1), "does not match"},
		{"a redacted secret", strings.Replace(good, s.Secret.Reveal(), "whsec_[redacted]", 1), "secret"},
		{"a short secret", strings.Replace(good, s.Secret.Reveal(), "whsec_c2hvcnQ=", 1), "secret"},
		{"an unknown category", strings.Replace(good, `"status":{}`, `"status":{"lastError":"teapot"}`, 1), "category"},
		{"negative counts", strings.Replace(good, `"status":{}`, `"status":{"windowAttempts":-1}`, 1), "counts"},
		{"too large", strings.Replace(good, `"cursor":null`, `"cursor":"`+strings.Repeat("x", 5000)+`"`, 1), "over the limit"},
	}
	c := newClient(t, addr)
	defer c.Close()
	client := newClient(t, addr)
	defer client.Close()
	r := redis.New(client, &redis.Options{KeyPrefix: "test:", MaxMessageBytes: 4096}).WebhookRegistry()
	if err := c.Set(ctx, "test:webhook:{"+s.ID+"}", good, 0).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Get(ctx, s.ID); err != nil || !got.Secret.Equal(s.Secret) {
		t.Fatalf("the well-formed value: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.Set(ctx, "test:webhook:{"+s.ID+"}", tt.value, 0).Err(); err != nil {
				t.Fatal(err)
			}
			_, err := r.Get(ctx, s.ID)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), s.ID) {
				t.Fatalf("Get = %v; want an error about %q naming the subscription", err, tt.want)
			}
			if err := r.Update(ctx, s.ID, func(*webhook.Subscription) error { return nil }); err == nil || errors.Is(err, webhook.ErrSubscriptionNotFound) {
				t.Fatalf("Update = %v; want the decoding error", err)
			}
			if strings.Contains(err.Error(), s.Secret.Reveal()) {
				t.Fatal("the error shows the secret")
			}
		})
	}
	// What does not decode can still be deleted.
	if err := r.Delete(ctx, s.ID); err != nil {
		t.Fatalf("Delete of a value that does not decode: %v", err)
	}
	if _, err := r.Get(ctx, s.ID); !errors.Is(err, webhook.ErrSubscriptionNotFound) {
		t.Fatalf("Get after deleting a value that did not decode = %v, want ErrSubscriptionNotFound", err)
	}
}

// FuzzWebhookStoredValue: whatever a subscription's key holds in Redis,
// Get returns an error or a subscription stored under its own id that
// round-trips through Put unchanged; it never panics.
func FuzzWebhookStoredValue(f *testing.F) {
	s := newSubscription(f, "email.received", "https://hooks.example.com/a", webhook.Grant{})
	good := fmt.Sprintf(`{"v":1,"id":%q,"principal":"alice","url":%q,"name":"email.received","arguments":"{}","secret":%q,"cursor":"c-1","status":{"lastError":"timeout","windowAttempts":3,"windowFailures":1,"windowStart":"2026-12-02T06:00:00.123Z"}}`,
		s.ID, s.Key.URL, s.Secret.Reveal())
	for _, v := range []string{good, `{}`, `{"v":1}`, `[`, ``, strings.Replace(good, `"c-1"`, `null`, 1), strings.Replace(good, `"v":1`, `"v":1.5`, 1)} {
		f.Add(v)
	}
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(m.Close)
	r := newBackend(f, m.Addr()).WebhookRegistry()
	key := "test:webhook:{" + s.ID + "}"
	f.Fuzz(func(t *testing.T, value string) {
		ctx := context.Background()
		if err := m.Set(key, value); err != nil {
			t.Fatal(err)
		}
		got, err := r.Get(ctx, s.ID)
		if err != nil {
			return
		}
		if got.ID != s.ID || got.Key.ID() != s.ID {
			t.Fatalf("Get accepted a subscription of another id: %+v", got.Key)
		}
		if err := r.Put(ctx, got); err != nil {
			t.Fatalf("Put of what Get accepted: %v", err)
		}
		again, err := r.Get(ctx, s.ID)
		if err != nil {
			t.Fatalf("Get after Put of what Get accepted: %v", err)
		}
		if !again.Secret.Equal(got.Secret) || !again.PreviousSecret.Equal(got.PreviousSecret) || again.Key != got.Key ||
			!sameStatus(again.Status, got.Status) || (again.Cursor == nil) != (got.Cursor == nil) || !again.Grant.RefreshBefore.Equal(got.Grant.RefreshBefore) {
			t.Fatalf("what Get accepted does not round-trip: %+v, then %+v", got, again)
		}
	})
}

// sameStatus reports whether a and b are equal, their times as instants.
func sameStatus(a, b webhook.DeliveryStatus) bool {
	return a.Suspended == b.Suspended && a.LastDeliveryAt.Equal(b.LastDeliveryAt) && a.LastError == b.LastError &&
		a.FailedSince.Equal(b.FailedSince) && a.WindowStart.Equal(b.WindowStart) &&
		a.WindowAttempts == b.WindowAttempts && a.WindowFailures == b.WindowFailures
}

// TestWebhookRegistryRefreshMovesExpiry: a refresh (webhook.Upsert) that
// extends the grant moves the expiry of the subscription's key and of its
// index entry with it, and a refresh to no expiry removes both.
func TestWebhookRegistryRefreshMovesExpiry(t *testing.T) {
	addr, _ := server(t)
	ctx := t.Context()
	r := newBackend(t, addr).WebhookRegistry()
	c := newClient(t, addr)
	defer c.Close()
	now := time.Now()
	s := newSubscription(t, "email.received", "https://hooks.example.com/a", webhook.Grant{RefreshBefore: now.Add(time.Minute)})
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	key := "test:webhook:{" + s.ID + "}"
	index := ""
	for _, k := range c.Keys(ctx, "test:webhook:name:*").Val() {
		index = k
	}
	steps := []struct {
		grant     webhook.Grant
		wantPTTL  time.Duration // -1: none
		wantScore float64
	}{
		{webhook.Grant{RefreshBefore: now.Add(time.Hour)}, time.Hour, float64(now.Add(time.Hour).UnixMilli())},
		{webhook.Grant{}, -1, float64(1 << 53)},
		{webhook.Grant{RefreshBefore: now.Add(2 * time.Minute)}, 2 * time.Minute, float64(now.Add(2 * time.Minute).UnixMilli())},
	}
	for i, st := range steps {
		refresh := s.Clone()
		refresh.Grant = st.grant
		if _, refreshed, err := webhook.Upsert(ctx, r, refresh, time.Now(), time.Hour); err != nil || !refreshed {
			t.Fatalf("step %d: Upsert: refreshed %v, %v", i, refreshed, err)
		}
		pttl := c.PTTL(ctx, key).Val()
		if st.wantPTTL < 0 && pttl != -1 || st.wantPTTL > 0 && (pttl <= st.wantPTTL-time.Minute/2 || pttl > st.wantPTTL) {
			t.Errorf("step %d: PTTL %v, want about %v", i, pttl, st.wantPTTL)
		}
		if score := c.ZScore(ctx, index, s.ID).Val(); score < st.wantScore || score > st.wantScore+1 {
			t.Errorf("step %d: index score %v, want %v", i, score, st.wantScore)
		}
	}
}

// TestWebhookRegistryKeysShareASlot: every key the registry writes for a
// subscription (the subscription, its claims) has the hash tag {id}, so a
// Redis Cluster keeps them in one slot.
func TestWebhookRegistryKeysShareASlot(t *testing.T) {
	addr, _ := server(t)
	ctx := t.Context()
	r := newBackend(t, addr).WebhookRegistry()
	s := newSubscription(t, "email.received", "https://hooks.example.com/a", webhook.Grant{})
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"evt_1", "evt/2 with {braces}"} {
		if _, err := r.Claim(ctx, s.ID, e, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, addr)
	defer c.Close()
	keys := keys(t, c, "*"+s.ID+"*")
	if len(keys) != 3 {
		t.Fatalf("keys of the subscription: %q, want it and two claims", keys)
	}
	for _, k := range keys {
		open := strings.IndexByte(k, '{')
		end := strings.IndexByte(k[open+1:], '}')
		if open < 0 || end < 0 || k[open+1:open+1+end] != s.ID {
			t.Errorf("key %q has not the hash tag {%s}", k, s.ID)
		}
	}
}

// TestWebhookRegistryRefusingRedis: a Redis that refuses every command
// makes each method fail with an error that is not ErrSubscriptionNotFound
// (and a Claim that is not won), at once and without retrying; an update
// that changes the subscription's key is refused.
func TestWebhookRegistryRefusingRedis(t *testing.T) {
	m := miniredis.RunT(t)
	r := newBackend(t, m.Addr()).WebhookRegistry()
	ctx := t.Context()
	s := newSubscription(t, "email.received", "https://hooks.example.com/a", webhook.Grant{})
	if err := r.Put(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := r.Update(ctx, s.ID, func(sub *webhook.Subscription) error { sub.Key.URL += "/elsewhere"; return nil }); err == nil ||
		!strings.Contains(err.Error(), "changed its key") {
		t.Fatalf("an Update that changes the key = %v, want it refused", err)
	}

	m.SetError("READONLY You can't write against a read only replica.")
	calls := 0
	checks := []struct {
		name string
		err  error
	}{
		{"Put", r.Put(ctx, s)},
		{"Get", func() error { _, err := r.Get(ctx, s.ID); return err }()},
		{"Update", r.Update(ctx, s.ID, func(*webhook.Subscription) error { calls++; return nil })},
		{"Delete", r.Delete(ctx, s.ID)},
		{"List", func() error { _, err := r.List(ctx, "email.received"); return err }()},
		{"Verification", func() error { _, err := r.Verification(ctx, "alice", s.Key.URL); return err }()},
		{"SetVerification", r.SetVerification(ctx, "alice", s.Key.URL, time.Now())},
		{"Claim", func() error {
			won, err := r.Claim(ctx, s.ID, "evt_1", time.Minute)
			if won {
				return nil
			}
			return err
		}()},
	}
	for _, c := range checks {
		if c.err == nil || errors.Is(c.err, webhook.ErrSubscriptionNotFound) {
			t.Errorf("%s with a refusing Redis = %v, want an error other than not found", c.name, c.err)
		}
	}
	if calls != 0 {
		t.Errorf("Update called its function %d times on a refusing Redis", calls)
	}
	m.SetError("")
	if _, err := r.Get(ctx, s.ID); err != nil {
		t.Fatalf("Get once Redis works again: %v", err)
	}
}
