package webhook

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestMemoryClaimsBounded: the memory registry drops expired claims as new
// ones arrive, so it holds about as many as are still in force, not every
// claim ever taken.
func TestMemoryClaimsBounded(t *testing.T) {
	now := time.Now()
	r := NewMemoryRegistry(func() time.Time { return now })
	ctx := context.Background()
	const rounds, perRound = 20, 500
	for round := range rounds {
		for i := range perRound {
			won, err := r.Claim(ctx, "sub", fmt.Sprintf("evt_%d_%d", round, i), time.Second)
			if err != nil || !won {
				t.Fatalf("Claim of a new event = %v, %v", won, err)
			}
		}
		now = now.Add(2 * time.Second) // every claim of this round expires
	}
	if n := len(r.claims); n > 2*perRound+minSweep {
		t.Fatalf("after %d claims, %d of them in force at most, the registry holds %d", rounds*perRound, perRound, n)
	}
}
