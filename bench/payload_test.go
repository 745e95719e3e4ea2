package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A payloadCase is one large answer: a tools/call of TextTool or a
// resources/read of BlobURI.
type payloadCase struct {
	name string
	size int
	get  func(ctx context.Context, s PayloadSession) (int, error)
}

var payloadCases = []payloadCase{
	{"text1m", 1 * MiB, func(ctx context.Context, s PayloadSession) (int, error) { return s.CallText(ctx, 1*MiB) }},
	{"text16m", 16 * MiB, func(ctx context.Context, s PayloadSession) (int, error) { return s.CallText(ctx, 16*MiB) }},
	{"blob16m", BlobSize, func(ctx context.Context, s PayloadSession) (int, error) { return s.ReadBlob(ctx) }},
}

// BenchmarkPayload measures large answers: a tools/call answering 1 MiB
// and 16 MiB of text, and a resources/read of a 16 MiB binary resource
// (base64 on the wire), in memory and over streamable HTTP, in both eras.
// It reports MB/s of payload, and the bytes allocated during a call per
// payload byte: in memory for client and server together
// ("alloc/payload"); over HTTP, with the server in a child process, for
// each side apart ("client-alloc/payload", "server-alloc/payload"). What a
// call allocates bounds from above how much its heap grows while it runs.
func BenchmarkPayload(b *testing.B) {
	for _, pc := range payloadCases {
		for _, tr := range []string{"memory", "http"} {
			for _, era := range Eras {
				for _, sdk := range SDKs() {
					b.Run(fmt.Sprintf("%s/%s/%s/%s", pc.name, tr, era, sdk.Name()), func(b *testing.B) {
						if tr == "memory" {
							benchPayloadMemory(b, sdk, era, pc)
						} else {
							benchPayloadHTTP(b, sdk, era, pc)
						}
					})
				}
			}
		}
	}
}

func benchPayloadMemory(b *testing.B, sdk SDK, era Era, pc payloadCase) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sess, err := srv.ConnectInMemory(ctx, era)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	runPayload(b, sess, pc, nil)
}

func benchPayloadHTTP(b *testing.B, sdk SDK, era Era, pc payloadCase) {
	ctx := context.Background()
	child, err := StartChild(sdk.Name(), era)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := child.Stop(); err != nil {
			b.Error(err)
		}
	}()
	hc := newHTTPClient(2)
	defer hc.CloseIdleConnections()
	sess, err := sdk.ConnectHTTP(ctx, child.URL, era, hc)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	runPayload(b, sess, pc, child)
}

// runPayload makes one untimed call, then b.N timed ones, and reports the
// figures. With a child, the server's allocations are asked of it.
func runPayload(b *testing.B, sess Session, pc payloadCase, child *Child) {
	ctx := context.Background()
	ps, ok := sess.(PayloadSession)
	if !ok {
		b.Skip(fmt.Errorf("%w: the session cannot fetch payloads", ErrPending))
	}
	if _, err := pc.get(ctx, ps); err != nil {
		if !strings.HasPrefix(b.Name(), "BenchmarkPayload/") || strings.HasSuffix(b.Name(), "/ours") {
			b.Fatal(err)
		}
		// A peer that cannot carry the payload at all (a message size
		// limit it has no option for in this set-up) has no figure.
		b.Skip(fmt.Errorf("%w: %v", ErrPending, err))
	}
	hc := newHTTPClient(1)
	defer hc.CloseIdleConnections()
	var serverBefore ChildMem
	if child != nil {
		var err error
		if serverBefore, err = child.Mem(ctx, hc); err != nil {
			b.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.SetBytes(int64(pc.size))
	b.ResetTimer()
	for range b.N {
		if _, err := pc.get(ctx, ps); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	perPayload := func(bytes uint64) float64 { return float64(bytes) / float64(b.N) / float64(pc.size) }
	if child == nil {
		b.ReportMetric(perPayload(after.TotalAlloc-before.TotalAlloc), "alloc/payload")
		return
	}
	b.ReportMetric(perPayload(after.TotalAlloc-before.TotalAlloc), "client-alloc/payload")
	serverAfter, err := child.Mem(ctx, hc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(perPayload(serverAfter.TotalAlloc-serverBefore.TotalAlloc), "server-alloc/payload")
}
