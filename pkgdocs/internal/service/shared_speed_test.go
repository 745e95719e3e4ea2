package service

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
)

// BenchmarkAnswerFromRedis measures, for each of the cold questions, the
// answer of an instance that never fetched the package (a new service,
// its memory empty) to a question another instance answered: two reads of
// Redis (the version the request resolves to, then the rendered answer)
// and the strict decoding and checking of the answer, without loading the
// package. Each iteration fails unless the answer came from the rendered
// entry. Goal: at most 5 ms p99, reported as p99-ns. The Redis is a
// miniredis, or the one GOMCP_REDIS_ADDR names (flushed first).
func BenchmarkAnswerFromRedis(b *testing.B) {
	addr := os.Getenv("GOMCP_REDIS_ADDR")
	if addr == "" {
		addr = miniredis.RunT(b).Addr()
	}
	client := goredis.NewClient(&goredis.Options{Addr: addr})
	b.Cleanup(func() { client.Close() })
	if err := client.FlushDB(b.Context()).Err(); err != nil {
		b.Fatal(err)
	}
	store := shared.NewRedis(client, nil)
	b.Cleanup(func() { store.Close() })
	cfg := evalConfig(b, false)
	cfg.Shared = store
	first, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range speedQuestions {
		if _, _, err := ask(context.Background(), first, q, ""); err != nil {
			b.Fatalf("%s: %v", q.ID, err)
		}
		b.Run(q.ID, func(b *testing.B) {
			var fetches atomic.Int64
			durs := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				c := *cfg
				c.Client = fetch.New(&fetch.Options{Retries: -1, CountRequests: func(string, string) { fetches.Add(1) }})
				s, err := New(&c)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				if _, _, err := ask(context.Background(), s, q, ""); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
				b.StopTimer()
				if st := s.SharedStats(); st != (SharedStats{Answers: 1}) {
					b.Fatalf("%s: %+v, want one answer from a rendered entry and no package decoded", q.ID, st)
				}
				b.StartTimer()
			}
			b.StopTimer()
			if n := fetches.Load(); n != 0 {
				b.Fatalf("instances that never fetched %s asked the registry %d times", q.ID, n)
			}
			reportPercentiles(b, durs)
			b.ReportMetric(float64(percentile(durs, 0.99).Nanoseconds()), "p99-ns")
		})
	}
}

// percentile returns the q-th quantile of durations sorted in increasing
// order (reportPercentiles sorts them).
func percentile(sorted []time.Duration, q float64) time.Duration {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}
