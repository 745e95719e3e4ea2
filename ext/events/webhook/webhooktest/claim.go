package webhooktest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events/webhook"
)

// claimTTL is the ttl of the claims the tests take that do not expire
// during the test.
const claimTTL = time.Minute

// testClaimOnce: the first Claim of a pair wins, a second loses, and other
// events and other subscriptions are claimed on their own.
func testClaimOnce(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	const sub, other = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
	steps := []struct {
		id, eventID string
		want        bool
	}{
		{sub, "evt_1", true},
		{sub, "evt_1", false},
		{sub, "evt_2", true},
		{other, "evt_1", true},
		{sub, "evt_2", false},
		{sub, "an event id with spaces/and:colons{}", true},
		{sub, "an event id with spaces/and:colons{}", false},
	}
	for i, s := range steps {
		got, err := r.Claim(ctx, s.id, s.eventID, claimTTL)
		if err != nil {
			t.Fatalf("step %d: Claim(%s, %q): %v", i, s.id, s.eventID, err)
		}
		if got != s.want {
			t.Fatalf("step %d: Claim(%s, %q) = %v, want %v", i, s.id, s.eventID, got, s.want)
		}
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, err := r.Claim(ctx, sub, "evt_3", ttl); err == nil {
			t.Errorf("Claim with ttl %v succeeded; want an error", ttl)
		}
	}
}

// testClaimConcurrent: of many concurrent Claims of one pair, exactly one
// wins.
func testClaimConcurrent(t *testing.T, r webhook.Registry) {
	ctx := context.Background()
	const n = 20
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			ok, err := r.Claim(ctx, "0123456789abcdef0123456789abcdef", "evt_1", claimTTL)
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if got := wins.Load(); got != 1 {
		t.Fatalf("%d concurrent Claims of one event: %d won, want 1", n, got)
	}
}

// testClaimExpires: a claim can be taken again once its ttl has passed.
func testClaimExpires(t *testing.T, r webhook.Registry, clock Clock) {
	ctx := context.Background()
	const sub = "0123456789abcdef0123456789abcdef"
	if ok, err := r.Claim(ctx, sub, "evt_1", expiry); err != nil || !ok {
		t.Fatalf("first Claim = %v, %v; want true", ok, err)
	}
	if ok, err := r.Claim(ctx, sub, "evt_1", expiry); err != nil || ok {
		t.Fatalf("Claim before expiry = %v, %v; want false", ok, err)
	}
	clock.Advance(t, 2*expiry)
	if ok, err := r.Claim(ctx, sub, "evt_1", expiry); err != nil || !ok {
		t.Fatalf("Claim after the first expired = %v, %v; want true", ok, err)
	}
}
