package auth_test

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/gomcp/sdk/auth"
)

// docs:region dpop-replay-cache
// replayCache is a DPoPReplayCache on a store every instance reaches.
// Seen is one atomic command: with Redis, SET <prefix><key> 1 NX PXAT
// <expires in ms>, which sets the key only if it is absent and whose
// reply says which happened.
type replayCache struct {
	store  *kvStore
	prefix string
}

func (c replayCache) Seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	set, err := c.store.SetNXPXAt(ctx, c.prefix+key, expires)
	if err != nil {
		return false, err // the request gets 503: a proof is never accepted unchecked
	}
	return !set, nil // not set: the key was there, the proof is a replay
}

// docs:endregion

// kvStore stands in for a Redis client in these examples.
type kvStore struct {
	mu   sync.Mutex
	keys map[string]time.Time // key -> expiry
}

// SetNXPXAt sets key, expiring at expires, unless it exists: Redis's
// SET key 1 NX PXAT ms. It reports whether it set the key.
func (s *kvStore) SetNXPXAt(ctx context.Context, key string, expires time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if exp, ok := s.keys[key]; ok && time.Now().Before(exp) {
		return false, nil
	}
	s.keys[key] = expires
	return true, nil
}

// A DPoPReplayCache shared by the instances of a server accepts each proof
// once among all of them: the second instance to see a proof's key finds
// it there.
func ExampleDPoPReplayCache() {
	store := &kvStore{keys: map[string]time.Time{}}
	instanceA := replayCache{store: store, prefix: "mcp:dpop:"}
	instanceB := replayCache{store: store, prefix: "mcp:dpop:"}
	ctx, expires := context.Background(), time.Now().Add(time.Minute)
	replayed, _ := instanceA.Seen(ctx, "3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", expires)
	fmt.Println("A, first use:", replayed)
	replayed, _ = instanceB.Seen(ctx, "3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", expires)
	fmt.Println("B, replayed:", replayed)
	// Output:
	// A, first use: false
	// B, replayed: true
}

// Instances of a server behind a load balancer share DPoP nonces through a
// key and accepted proofs through a replay cache, so that any instance
// accepts what another handed out, and no proof twice.
func ExampleNewSharedDPoPNonces() {
	verifier, err := auth.NewJWTVerifier(&auth.JWTVerifierOptions{
		Issuer:   "https://auth.example.com",
		Audience: "https://mcp.example.com/mcp",
	})
	if err != nil {
		log.Fatal(err)
	}
	store := &kvStore{keys: map[string]time.Time{}}
	key := []byte("the same 32+ random bytes on all instances") // from your secret store
	// docs:region dpop-shared
	nonces, err := auth.NewSharedDPoPNonces(key, time.Minute)
	if err != nil {
		log.Fatal(err)
	}
	protect, err := auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{
		Resource: "https://mcp.example.com/mcp", // the URL clients use, the same on every instance
		DPoP: &auth.DPoPOptions{
			Nonce:       nonces,
			ReplayCache: replayCache{store: store, prefix: "mcp:dpop:"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// docs:endregion
	_ = protect

	// Another instance, with the same key, accepts this one's nonce.
	other, _ := auth.NewSharedDPoPNonces(key, time.Minute)
	fmt.Println(other.Valid(nonces.Nonce()))
	// Output: true
}
