//go:build !race

package auth

// raceEnabled is set in builds with the race detector, whose
// instrumentation makes allocation counts vary from run to run.
const raceEnabled = false
