package bench

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

// startWarmUp is how many connects and POSTs BenchmarkStartLatency makes
// before it measures.
const startWarmUp = 20

// BenchmarkStartLatency measures how long a 2026-07-28 client takes to
// start: the time to connect a new client session of the SDK over
// streamable HTTP (server/discover) with a warm, shared http.Client whose
// keep-alive connection is already open, against one plain POST of a
// server/discover request of about the same size to the same handler on the
// same http.Client, read fully (the raw load generator's). The handler runs
// in this process, as in BenchmarkSetup/http.
//
// One op is one connect and one POST, in alternating order; closing the
// session is not timed. It reports the median of each ("connect-ns",
// "post-ns") and their ratio ("connect/post"): a client that starts in one
// round trip and adds little work of its own stays near 1.
func BenchmarkStartLatency(b *testing.B) {
	for _, sdk := range SDKs() {
		b.Run(Modern.String()+"/"+sdk.Name(), func(b *testing.B) { benchStartLatency(b, sdk) })
	}
}

func benchStartLatency(b *testing.B, sdk SDK) {
	ctx := context.Background()
	h, done, err := TargetHandler(sdk.Name(), Modern)
	if errors.Is(err, ErrPending) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer done()
	ts := httptest.NewServer(h)
	defer ts.Close()
	hc := newHTTPClient(4)
	defer hc.CloseIdleConnections()
	raw := &RawClient{URL: ts.URL, HTTP: hc, Era: Modern}
	connect := func() (time.Duration, error) {
		t0 := time.Now()
		sess, err := sdk.ConnectHTTP(ctx, ts.URL, Modern, hc)
		d := time.Since(t0)
		if err != nil {
			return 0, err
		}
		if v := sess.ProtocolVersion(); v != ModernVersion {
			sess.Close()
			return 0, errors.New(sdk.Name() + ": connected at " + v + ", not " + ModernVersion)
		}
		return d, sess.Close()
	}
	post := func() (time.Duration, error) {
		t0 := time.Now()
		err := raw.Discover(ctx)
		return time.Since(t0), err
	}
	connects, posts := NewLatencies(b.N), NewLatencies(b.N)
	for i := range startWarmUp + b.N {
		first, second := connect, post
		if i%2 == 1 {
			first, second = post, connect
		}
		d1, err := first()
		if err != nil {
			b.Fatal(err)
		}
		d2, err := second()
		if err != nil {
			b.Fatal(err)
		}
		if i%2 == 1 {
			d1, d2 = d2, d1
		}
		if i >= startWarmUp {
			connects[i-startWarmUp], posts[i-startWarmUp] = d1, d2
		}
		if i == startWarmUp-1 {
			b.ResetTimer()
		}
	}
	b.StopTimer()
	c, p := connects.Percentile(50), posts.Percentile(50)
	b.ReportMetric(float64(c), "connect-ns")
	b.ReportMetric(float64(p), "post-ns")
	b.ReportMetric(float64(c)/float64(p), "connect/post")
}
