package bench

import (
	"slices"
	"time"
)

// Latencies records the duration of each call of a load run. Slot i belongs
// to call i, so concurrent workers record without locking.
type Latencies []time.Duration

// NewLatencies returns room for n calls.
func NewLatencies(n int) Latencies { return make(Latencies, n) }

// Percentile returns the p-th percentile (0 < p <= 100) by the
// nearest-rank method, or 0 if there are no calls. It sorts l.
func (l Latencies) Percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	rank := int(p/100*float64(len(l)) + 0.999999999)
	rank = min(max(rank, 1), len(l))
	return l[rank-1]
}
