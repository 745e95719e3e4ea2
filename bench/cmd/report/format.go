package main

import (
	"fmt"
	"math"
	"strings"
)

// formatValue formats a figure for the report according to its unit.
func formatValue(unit string, v float64) string {
	switch {
	case unit == "ns/op" || strings.HasSuffix(unit, "-ns") || strings.Contains(unit, "-ns/"):
		return formatNanos(v)
	case strings.HasSuffix(unit, "-ms"): // a time the benchmark reports in milliseconds
		return formatNanos(v * 1e6)
	case strings.HasSuffix(unit, "/post"): // a ratio of two times
		return formatRatio(v)
	case unit == "B/op" || strings.HasSuffix(unit, "B/session"):
		return formatBytes(v)
	case strings.Contains(unit, "goroutines"):
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func formatNanos(v float64) string {
	switch a := math.Abs(v); {
	case a < 1e3:
		return fmt.Sprintf("%.0f ns", v)
	case a < 1e6:
		return fmt.Sprintf("%.3g µs", v/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.3g ms", v/1e6)
	default:
		return fmt.Sprintf("%.3g s", v/1e9)
	}
}

func formatBytes(v float64) string {
	switch a := math.Abs(v); {
	case a < 1024:
		return fmt.Sprintf("%.0f B", v)
	case a < 1024*1024:
		return fmt.Sprintf("%.1f KiB", v/1024)
	default:
		return fmt.Sprintf("%.1f MiB", v/1024/1024)
	}
}

// formatRatio formats a ratio with three significant digits.
func formatRatio(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.3g", v)
}
