package bench

import (
	"context"
	"errors"
	"testing"
)

// parallelism is the number of calling goroutines per GOMAXPROCS in the
// parallel benchmarks, all sharing one client session.
const parallelism = 4

// BenchmarkCallTool makes one tools/call of the echo tool per op, client and
// server in one process, over each SDK's in-memory transport and over an
// os.Pipe pair (newline-delimited JSON, as stdio), in both eras: "seq" from
// one goroutine, "par" from parallelism×GOMAXPROCS goroutines sharing one
// session. B/op and allocs/op count client and server together.
func BenchmarkCallTool(b *testing.B) {
	for _, tr := range []string{"memory", "pipe"} {
		for _, era := range Eras {
			for _, mode := range []string{"seq", "par"} {
				for _, sdk := range SDKs() {
					b.Run(tr+"/"+era.String()+"/"+mode+"/"+sdk.Name(), func(b *testing.B) {
						benchCallTool(b, sdk, tr, era, mode == "par")
					})
				}
			}
		}
	}
}

func benchCallTool(b *testing.B, sdk SDK, tr string, era Era, parallel bool) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var sess Session
	if tr == "memory" {
		sess, err = srv.ConnectInMemory(ctx, era)
	} else {
		sess, err = srv.ConnectPipe(ctx, era)
	}
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Echo(ctx, EchoText); err != nil { // warm up, check
		b.Fatal(err)
	}
	b.ReportAllocs()
	if !parallel {
		for b.Loop() {
			if err := sess.Echo(ctx, EchoText); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := sess.Echo(ctx, EchoText); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
