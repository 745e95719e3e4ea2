package main

import (
	"fmt"
	"slices"
)

// The interval of a median, for goals read from many samples: a
// distribution-free confidence interval from order statistics, which needs
// no assumption about how the samples scatter (a loaded machine makes them
// skewed, with outliers).

// confidence is the confidence level the report asks of its intervals.
const confidence = 0.95

// An interval bounds the median of n samples: the true median lies in
// [lo, hi] with probability at least coverage. min and max are the range.
type interval struct {
	n                int
	median           float64
	lo, hi, coverage float64
	minimum, maximum float64
}

// medianInterval returns the interval of the median of vs at the level
// asked, or false if vs is empty. With n samples sorted as x(1) ≤ … ≤ x(n),
// [x(k), x(n+1-k)] holds the median with probability 1 - 2·P(B ≤ k-1),
// B ~ Binomial(n, 1/2); k is the largest whose coverage reaches level.
// Fewer than six samples cannot reach 95%: their interval is the range,
// with the coverage it has (for one sample, none).
func medianInterval(vs []float64, level float64) (interval, bool) {
	m, ok := median(vs)
	if !ok {
		return interval{}, false
	}
	xs := slices.Clone(vs)
	slices.Sort(xs)
	n := len(xs)
	iv := interval{n: n, median: m, minimum: xs[0], maximum: xs[n-1]}
	k, coverage := 1, 1-2*binomialTail(n, 0)
	for j := 2; j <= (n+1)/2; j++ {
		c := 1 - 2*binomialTail(n, j-1)
		if c < level {
			break
		}
		k, coverage = j, c
	}
	iv.lo, iv.hi, iv.coverage = xs[k-1], xs[n-k], max(coverage, 0)
	return iv, true
}

// binomialTail returns P(B ≤ k) for B ~ Binomial(n, 1/2).
func binomialTail(n, k int) float64 {
	p := 1.0
	for range n {
		p /= 2 // P(B = 0)
	}
	sum := 0.0
	for i := 0; i <= k && i <= n; i++ {
		sum += p
		p = p * float64(n-i) / float64(i+1)
	}
	return sum
}

// verdict checks a goal's bound against the interval: met when the whole
// interval is on the goal's side of limit, not met when the whole interval
// is on the other side, and not distinguishable when it holds limit.
func (iv interval) verdict(limit float64, atLeast bool) string {
	lo, hi := iv.lo, iv.hi
	switch {
	case atLeast && lo >= limit, !atLeast && hi <= limit:
		return met
	case atLeast && hi < limit, !atLeast && lo > limit:
		return notMet
	default:
		return indistinct
	}
}

// String describes the interval after the median it belongs to.
func (iv interval) String() string {
	return fmt.Sprintf("median of %d paired runs; %.3g%% confidence interval of the median %s–%s; range %s–%s",
		iv.n, 100*iv.coverage, formatRatio(iv.lo), formatRatio(iv.hi), formatRatio(iv.minimum), formatRatio(iv.maximum))
}
