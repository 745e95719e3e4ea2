package main

import (
	"math"
	"slices"
)

// A store holds the results of every run, by full benchmark name and pass.
type store struct {
	passes int
	values map[string]map[int]map[string]float64 // name → pass → unit → value
	skips  map[string]string                     // name → reason
	fails  map[string]string                     // name → message
}

func newStore() *store {
	return &store{
		values: make(map[string]map[int]map[string]float64),
		skips:  make(map[string]string),
		fails:  make(map[string]string),
	}
}

// add records the parsed output of one run made in pass.
func (s *store) add(pass int, out output) {
	s.passes = max(s.passes, pass+1)
	for _, r := range out.results {
		if s.values[r.name] == nil {
			s.values[r.name] = make(map[int]map[string]float64)
		}
		s.values[r.name][pass] = r.values
	}
	for _, sk := range out.skips {
		s.skips[sk.name] = sk.reason
	}
	for _, f := range out.fails {
		s.fails[f.name] = f.reason
	}
}

// value returns name's unit in pass.
func (s *store) value(name string, pass int, unit string) (float64, bool) {
	v, ok := s.values[name][pass][unit]
	return v, ok
}

// median returns the median over passes of name's unit.
func (s *store) median(name, unit string) (float64, bool) {
	var vs []float64
	for pass := range s.passes {
		if v, ok := s.value(name, pass, unit); ok {
			vs = append(vs, v)
		}
	}
	return median(vs)
}

// medianRatio returns the median over passes of num(pass)/den(pass),
// counting only passes where both are known. Both figures of a ratio come
// from the same pass, so they were measured under the same load. 0/0 counts
// as 1 (the same), n/0 as +Inf.
func (s *store) medianRatio(num, den func(pass int) (float64, bool)) (float64, bool) {
	var rs []float64
	for pass := range s.passes {
		n, ok1 := num(pass)
		d, ok2 := den(pass)
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
	return median(rs)
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
