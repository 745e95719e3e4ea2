package bench

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// stdioCallers are the numbers of concurrent callers of BenchmarkStdio.
var stdioCallers = []int{1, 8}

// BenchmarkStdio measures tools/call over stdio as a host runs a stdio
// server: client and server of one SDK joined by two os.Pipe
// (newline-delimited JSON), from 1 and 8 concurrent callers sharing the
// session, in both eras. It reports calls/s and the process's CPU time per
// call (client and server together; they share the process).
func BenchmarkStdio(b *testing.B) {
	for _, era := range Eras {
		for _, c := range stdioCallers {
			for _, sdk := range SDKs() {
				b.Run(fmt.Sprintf("%s/c%d/%s", era, c, sdk.Name()), func(b *testing.B) {
					benchStdio(b, sdk, era, c)
				})
			}
		}
	}
}

func benchStdio(b *testing.B, sdk SDK, era Era, callers int) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.ConnectPipe(ctx, era)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	call := func(int) error { return sess.Echo(ctx, EchoText) }
	if err := driveCalls(max(b.N/10, 2*callers), callers, call); err != nil { // warm up, check
		b.Fatal(err)
	}
	cpuBefore, err := processCPU()
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	if err := driveCalls(b.N, callers, call); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	cpuAfter, err := processCPU()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(b.N), "cpu-ns/call")
}
