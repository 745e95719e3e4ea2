package bench

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
)

// BenchmarkSetup measures session setup: one op connects a new client
// session, which runs the initialize handshake (legacy) or the
// server/discover probe (modern), in memory and over streamable HTTP on
// 127.0.0.1. Closing the session is not timed.
func BenchmarkSetup(b *testing.B) {
	for _, tr := range []string{"memory", "http"} {
		for _, era := range Eras {
			for _, sdk := range SDKs() {
				b.Run(tr+"/"+era.String()+"/"+sdk.Name(), func(b *testing.B) {
					benchSetup(b, sdk, tr, era)
				})
			}
		}
	}
}

func benchSetup(b *testing.B, sdk SDK, tr string, era Era) {
	ctx := context.Background()
	srv, err := sdk.NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	connect := func() (Session, error) { return srv.ConnectInMemory(ctx, era) }
	if tr == "http" {
		h, err := srv.Handler(era)
		if errors.Is(err, ErrPending) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(h)
		defer ts.Close()
		hc := newHTTPClient(4)
		defer hc.CloseIdleConnections()
		connect = func() (Session, error) { return sdk.ConnectHTTP(ctx, ts.URL, era, hc) }
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sess, err := connect()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := sess.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
