//go:build unix

package bench

import (
	"fmt"
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, the process has used so
// far. getrusage reports it in microseconds, and on Linux it is accounted at
// nanosecond precision by the scheduler, not sampled at clock ticks.
func processCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
