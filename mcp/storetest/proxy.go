package storetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
)

// RoundRobin returns a load balancer without affinity: it sends each
// request to the next of targets in turn, and streams responses (SSE)
// as they come. It is what the cluster tests put in front of their
// instances, and a stand-in for a real load balancer in examples.
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
		FlushInterval: -1, // SSE
	})
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
		}
		next.ServeHTTP(w, r)
	})
}
