//go:build !race

package otel

// raceEnabled is set in builds with the race detector, whose
// instrumentation makes allocation counts vary from run to run.
const raceEnabled = false
