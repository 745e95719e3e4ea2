package main

import "testing"

func TestFormatValue(t *testing.T) {
	tests := []struct {
		unit string
		v    float64
		want string
	}{
		{"ns/op", 512, "512 ns"},
		{"ns/op", 58703, "58.7 µs"},
		{"p99-ns", 1449052, "1.45 ms"},
		{"ns/op", 3.2e9, "3.2 s"},
		{"B/op", 900, "900 B"},
		{"B/op", 4608, "4.5 KiB"},
		{"server-B/session", 10192, "10.0 KiB"},
		{"client-stackB/session", -393.2, "-393 B"},
		{"B/op", 3 << 20, "3.0 MiB"},
		{"server-goroutines/session", 1, "1.00"},
		{"allocs/op", 51, "51"},
		{"calls/s", 2504.6, "2505"},
		{"server-cpu-ns/call", 102536, "103 µs"},
		{"connect-ns", 283989, "284 µs"},
		{"connect/post", 1.1523, "1.15"},
	}
	for _, tt := range tests {
		if got := formatValue(tt.unit, tt.v); got != tt.want {
			t.Errorf("formatValue(%q, %v) = %q, want %q", tt.unit, tt.v, got, tt.want)
		}
	}
}
