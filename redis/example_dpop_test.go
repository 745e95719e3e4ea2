package redis_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/redis"
)

// Instances of a server that accepts DPoP-bound tokens share the proofs
// they accepted on Redis: a proof accepted by one instance is a replay to
// every other. (Here two backends stand for two instances, on a Redis in
// memory.)
func ExampleBackend_DPoPReplayCache() {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	defer m.Close()
	client := goredis.NewClient(&goredis.Options{Addr: m.Addr()})
	defer client.Close()
	first, second := redis.New(client, nil), redis.New(client, nil)
	defer first.Close()
	defer second.Close()

	// docs:region dpop-replay-redis
	dpop := &auth.DPoPOptions{
		ReplayCache: first.DPoPReplayCache(), // on every instance, its own backend's
	}
	// docs:endregion
	_ = dpop

	// What the auth module does with each proof it accepts: its key (a
	// hash of the proof's id and key) is recorded until the proof expires.
	ctx := context.Background()
	const key = "Ht3Q2lQ4Vb3sEXAMPLEKEYxxxxxxxxxxxxxxxxxxxx"
	expires := time.Now().Add(time.Minute)
	replayed, _ := first.DPoPReplayCache().Seen(ctx, key, expires)
	fmt.Println("first instance, replayed:", replayed)
	replayed, _ = second.DPoPReplayCache().Seen(ctx, key, expires)
	fmt.Println("second instance, replayed:", replayed)
	// Output:
	// first instance, replayed: false
	// second instance, replayed: true
}
