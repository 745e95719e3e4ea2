//go:build !unix

package bench

import (
	"fmt"
	"runtime"
	"time"
)

// processCPU reports that this system's process CPU time is not measured.
func processCPU() (time.Duration, error) {
	return 0, fmt.Errorf("%w: process CPU time is not measured on %s", ErrPending, runtime.GOOS)
}
