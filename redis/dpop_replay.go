package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// A DPoPReplayCache remembers, on Redis, the DPoP proofs the instances of
// a server accepted, so that a proof accepted by one instance is refused
// when replayed to another. It is the replay cache of the auth module's
// DPoP options (its DPoPReplayCache interface, which this type satisfies
// without this module depending on auth): set DPoPOptions.ReplayCache to
// it on every instance.
//
// Each key is one Redis key (KeyPrefix + "dpop:" + key) that expires with
// the proof's acceptance window, so Redis holds only proofs still
// acceptable.
type DPoPReplayCache struct{ b *Backend }

// DPoPReplayCache returns the backend's DPoP replay cache.
func (b *Backend) DPoPReplayCache() *DPoPReplayCache { return &DPoPReplayCache{b} }

// Seen records key until expires and reports whether it was recorded
// already and has not expired. It is one atomic command (SET NX PXAT), so
// of concurrent calls with one key on any number of instances, one alone
// reports false. An unreachable Redis is an error, and the auth module
// then refuses the request (503) rather than accept the proof unchecked.
func (c *DPoPReplayCache) Seen(ctx context.Context, key string, expires time.Time) (bool, error) {
	if !validID(key) {
		return false, errBadID
	}
	name := c.b.key("dpop", key)
	if !time.Now().Before(expires) {
		// Nothing to record: say only whether the key is still there.
		n, err := c.b.client.Exists(ctx, name).Result()
		if err != nil {
			return false, fmt.Errorf("mcp/redis: looking up a DPoP proof: %w", err)
		}
		return n > 0, nil
	}
	// PXAT in milliseconds, rounded up: the key must not expire before
	// the proof stops being acceptable (go-redis's SetArgs.ExpireAt sends
	// whole seconds, rounded down).
	ms := expires.UnixMilli()
	if expires.After(time.UnixMilli(ms)) {
		ms++
	}
	err := c.b.client.Do(ctx, "set", name, "1", "nx", "pxat", strconv.FormatInt(ms, 10)).Err()
	switch {
	case errors.Is(err, goredis.Nil):
		return true, nil // not set: the key was there, the proof is a replay
	case err != nil:
		return false, fmt.Errorf("mcp/redis: recording a DPoP proof: %w", err)
	}
	return false, nil
}
