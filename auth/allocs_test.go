package auth

import "testing"

// leastAllocs is testing.AllocsPerRun(runs, f) taken five times, the
// least of them. AllocsPerRun counts every allocation of the process, so
// a goroutine another test left behind adds its own to f's; the least of
// five runs is f's own count, unless something allocates throughout all
// five.
func leastAllocs(runs int, f func()) float64 {
	least := testing.AllocsPerRun(runs, f)
	for range 4 {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}
