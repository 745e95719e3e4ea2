package main

import (
	"cmp"
	"math"
	"slices"
)

// A sample names one run of every target of a group: the pass it was made
// in and, for a group run several times per pass (group.repeats), which
// repetition. Ratios are taken between targets of the same sample, which
// ran one after another under the same load.
type sample struct {
	pass, rep int
}

// compareSamples orders samples by pass, then repetition.
func compareSamples(a, b sample) int {
	if c := cmp.Compare(a.pass, b.pass); c != 0 {
		return c
	}
	return cmp.Compare(a.rep, b.rep)
}

// A store holds the results of every run, by full benchmark name and sample.
type store struct {
	passes  int
	samples []sample                                 // every sample recorded, in order
	values  map[string]map[sample]map[string]float64 // name → sample → unit → value
	skips   map[string]string                        // name → reason
	fails   map[string]string                        // name → message
}

func newStore() *store {
	return &store{
		values: make(map[string]map[sample]map[string]float64),
		skips:  make(map[string]string),
		fails:  make(map[string]string),
	}
}

// add records the parsed output of one run made in pass.
func (s *store) add(pass int, out output) { s.addSample(sample{pass: pass}, out) }

// addSample records the parsed output of one run made in sm.
func (s *store) addSample(sm sample, out output) {
	s.passes = max(s.passes, sm.pass+1)
	if i, found := slices.BinarySearchFunc(s.samples, sm, compareSamples); !found {
		s.samples = slices.Insert(s.samples, i, sm)
	}
	for _, r := range out.results {
		if s.values[r.name] == nil {
			s.values[r.name] = make(map[sample]map[string]float64)
		}
		s.values[r.name][sm] = r.values
	}
	for _, sk := range out.skips {
		s.skips[sk.name] = sk.reason
	}
	for _, f := range out.fails {
		s.fails[f.name] = f.reason
	}
}

// value returns name's unit in sm.
func (s *store) value(name string, sm sample, unit string) (float64, bool) {
	v, ok := s.values[name][sm][unit]
	return v, ok
}

// median returns the median over samples of name's unit.
func (s *store) median(name, unit string) (float64, bool) {
	var vs []float64
	for _, sm := range s.samples {
		if v, ok := s.value(name, sm, unit); ok {
			vs = append(vs, v)
		}
	}
	return median(vs)
}

// medianRatio returns the median over samples of num(sm)/den(sm),
// counting only samples where both are known.
func (s *store) medianRatio(num, den func(sm sample) (float64, bool)) (float64, bool) {
	return median(s.ratios(num, den))
}

// ratios returns num(sm)/den(sm) of every sample where both are known, in
// sample order. Both figures of a ratio come from the same sample, so they
// were measured under the same load. 0/0 counts as 1 (the same), n/0 as
// +Inf.
func (s *store) ratios(num, den func(sm sample) (float64, bool)) []float64 {
	var rs []float64
	for _, sm := range s.samples {
		n, ok1 := num(sm)
		d, ok2 := den(sm)
		if !ok1 || !ok2 {
			continue
		}
		switch {
		case d != 0:
			rs = append(rs, n/d)
		case n == 0:
			rs = append(rs, 1)
		default:
			rs = append(rs, math.Inf(1))
		}
	}
	return rs
}

// median returns the median of vs (the mean of the middle two for an even
// count), or false if vs is empty.
func median(vs []float64) (float64, bool) {
	if len(vs) == 0 {
		return 0, false
	}
	vs = slices.Clone(vs)
	slices.Sort(vs)
	mid := len(vs) / 2
	if len(vs)%2 == 1 {
		return vs[mid], true
	}
	return (vs[mid-1] + vs[mid]) / 2, true
}
