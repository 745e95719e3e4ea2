//go:build !race

package mcp

// raceEnabled is set in builds with the race detector, under which
// sync.Pool drops entries at random, so allocation counts vary a little
// from run to run.
const raceEnabled = false
