package bench

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(v ...int) Latencies {
		var l Latencies
		for _, x := range v {
			l = append(l, time.Duration(x)*time.Millisecond)
		}
		return l
	}
	tests := []struct {
		name string
		l    Latencies
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", ms(7), 99, 7 * time.Millisecond},
		{"median of 4 is the 2nd", ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p99 of 100 is the 99th", ms(seq(100)...), 99, 99 * time.Millisecond},
		{"p100 is the max", ms(5, 9, 1), 100, 9 * time.Millisecond},
		{"tiny p is the min", ms(5, 9, 1), 0.001, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := tt.l.Percentile(tt.p); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}
