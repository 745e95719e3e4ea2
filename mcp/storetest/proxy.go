package storetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"
)

// RoundRobin returns a load balancer without affinity: it sends each
// request to the next of targets in turn, and streams responses (SSE)
// as they come. It is what the cluster tests put in front of their
// instances, and a stand-in for a real load balancer in examples. Like
// one, it keeps a pool of idle connections to each target
// (balancerTransport).
func RoundRobin(targets []*url.URL) http.Handler {
	if len(targets) == 0 {
		panic("storetest: RoundRobin needs at least one target")
	}
	var next atomic.Uint64
	return bufferBodies(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(targets[(next.Add(1)-1)%uint64(len(targets))])
			pr.Out.Host = pr.In.Host
		},
		Transport:     balancerTransport(),
		FlushInterval: -1, // SSE
	})
}

// Bounds of the idle connections RoundRobin keeps to its targets.
const (
	// maxIdlePerTarget is far above http.DefaultTransport's 2, which
	// makes every request beyond the second in flight open a connection
	// of its own and close it afterwards: a new TCP connection, buffers
	// and goroutine on the instance for each.
	maxIdlePerTarget = 256
	// idleTimeout closes a connection idle for that long, before the
	// instance's own idle timeout (an example server's is a minute or
	// more) would close it under a request being sent.
	idleTimeout = 30 * time.Second
)

// balancerTransport returns the transport of RoundRobin: net/http's
// default one with a pool of idle connections per target as large as a
// load balancer keeps.
func balancerTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 0 // no bound across targets
	t.MaxIdleConnsPerHost = maxIdlePerTarget
	t.IdleConnTimeout = idleTimeout
	return t
}

// maxProxiedBody bounds a request body RoundRobin buffers.
const maxProxiedBody = 32 << 20

// bufferBodies reads each request body whole before proxying it.
// Streaming it instead loses a response now and then: once the instance
// answers, the balancer's server closes the incoming body, and the
// transport's last read of it (checking that it is no longer than
// declared) then fails and tears down the connection to the instance in
// the middle of the response.
func bufferBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxProxiedBody))
			if err != nil {
				http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
			r.ContentLength = int64(len(b))
			// Lets the transport send the request again on another
			// connection when a pooled one turns out closed before
			// anything was written to it.
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		}
		next.ServeHTTP(w, r)
	})
}
