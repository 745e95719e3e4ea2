package main

// The comparisons the report makes within a group: ours against the best
// peer, and any target against the ceiling.

import "github.com/gomcp/sdk/bench"

const (
	ours    = "ours"
	ceiling = "ceiling"
)

// peers returns g's targets other than ours, the ceiling and the fan-out
// floor, which are not SDKs.
func (g group) peers() []string {
	var ps []string
	for _, t := range g.targets {
		if t != ours && t != ceiling && t != bench.FloorName {
			ps = append(ps, t)
		}
	}
	return ps
}

// hasCeiling reports whether g measures the ceiling.
func (g group) hasCeiling() bool {
	for _, t := range g.targets {
		if t == ceiling {
			return true
		}
	}
	return false
}

// bestPeer returns, in one sample, the best value of m among g's peers and
// which peer had it.
func (s *store) bestPeer(g group, m metric, sm sample) (float64, string, bool) {
	var best float64
	var who string
	for _, p := range g.peers() {
		v, ok := s.value(g.full(p), sm, m.unit)
		if !ok {
			continue
		}
		if who == "" || (m.higher && v > best) || (!m.higher && v < best) {
			best, who = v, p
		}
	}
	return best, who, who != ""
}

// bestPeerName returns the peer with the best median of m.
func (s *store) bestPeerName(g group, m metric) string {
	var best float64
	var who string
	for _, p := range g.peers() {
		v, ok := s.median(g.full(p), m.unit)
		if !ok {
			continue
		}
		if who == "" || (m.higher && v > best) || (!m.higher && v < best) {
			best, who = v, p
		}
	}
	return who
}

// toBestPeer returns the median over samples of target's m divided by the
// best peer's m in the same sample.
func (s *store) toBestPeer(g group, m metric, target string) (float64, bool) {
	return s.medianRatio(
		func(sm sample) (float64, bool) { return s.value(g.full(target), sm, m.unit) },
		func(sm sample) (float64, bool) { v, _, ok := s.bestPeer(g, m, sm); return v, ok })
}

// toTarget returns the median over samples of a's m divided by b's m in the
// same sample.
func (s *store) toTarget(g group, m metric, a, b string) (float64, bool) {
	return s.medianRatio(
		func(sm sample) (float64, bool) { return s.value(g.full(a), sm, m.unit) },
		func(sm sample) (float64, bool) { return s.value(g.full(b), sm, m.unit) })
}

// toCeilingBestPeer returns the median over samples of the best peer's m
// divided by the ceiling's m in the same sample.
func (s *store) toCeilingBestPeer(g group, m metric) (float64, bool) {
	return s.medianRatio(
		func(sm sample) (float64, bool) { v, _, ok := s.bestPeer(g, m, sm); return v, ok },
		func(sm sample) (float64, bool) { return s.value(g.full(ceiling), sm, m.unit) })
}
