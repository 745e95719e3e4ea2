//go:build !unix

package otel

import "time"

// processCPU returns 0: the process's CPU time is not measured here.
func processCPU() time.Duration { return 0 }
