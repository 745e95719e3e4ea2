package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Raw JSON-RPC tools/call POSTs on 127.0.0.1 at 1, 8 and 64 concurrent
// clients, against a bare net/http handler that decodes the request and
// writes a fixed response (the ceiling), and against StreamableHTTPHandler
// in both eras. Besides ns/op, each reports calls/s and cpu-ns/op, the CPU
// time of the whole process (clients and server) per call: the clients'
// share is the same in every case, so differences are the server's.
//
//	go test -run '^$' -bench BenchmarkStreamableHTTP -benchtime 20000x ./mcp

const benchCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`

var benchModernCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`

// bareHandler is the ceiling: it decodes the request and writes a fixed
// tools/call response.
func bareHandler() http.Handler {
	resp := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(resp)
	})
}

func BenchmarkStreamableHTTP(b *testing.B) {
	server := NewServer("bench", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	defer h.Close()
	for _, clients := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("bare/clients=%d", clients), func(b *testing.B) {
			benchPOST(b, bareHandler(), clients, benchCall, nil, nil)
		})
		b.Run(fmt.Sprintf("legacy/clients=%d", clients), func(b *testing.B) {
			benchPOST(b, h, clients, benchCall, nil, func(c *http.Client, url string) http.Header {
				return benchInitialize(b, c, url)
			})
		})
		b.Run(fmt.Sprintf("modern/clients=%d", clients), func(b *testing.B) {
			hdr := http.Header{}
			for k, v := range modernHeaders(MethodCallTool, "echo") {
				hdr.Set(k, v)
			}
			benchPOST(b, h, clients, benchModernCall, hdr, nil)
		})
	}
}

// benchInitialize starts a legacy session and returns its headers.
func benchInitialize(b *testing.B, c *http.Client, url string) http.Header {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	drainClose(resp.Body)
	hdr := http.Header{}
	hdr.Set(headerSessionID, resp.Header.Get(headerSessionID))
	hdr.Set(headerProtocolVersion, Version20251125)
	return hdr
}

// benchPOST runs b.N POSTs of body from clients goroutines, each with its
// own connection.
func benchPOST(b *testing.B, h http.Handler, clients int, body string, hdr http.Header, setup func(*http.Client, string) http.Header) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ts := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	ts.Start()
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	payload := []byte(body)
	// Each client has its own headers: its own session, in the legacy era.
	hdrs := make([]http.Header, clients)
	for i := range hdrs {
		hdrs[i] = hdr
		if setup != nil {
			hdrs[i] = setup(client, ts.URL)
		}
	}
	one := func(hdr http.Header) error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL, bytes.NewReader(payload))
		req.Header["Content-Type"] = hdrJSON
		req.Header["Accept"] = []string{"application/json, text/event-stream"}
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body) // drained for connection reuse; the benchmark checked the status
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %s", resp.Status)
		}
		return nil
	}
	for i := range clients { // warm up every connection
		if err := one(hdrs[i]); err != nil {
			b.Fatal(err)
		}
	}
	cpu0 := processCPU()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		n := b.N / clients
		if i < b.N%clients {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				if err := one(hdrs[i]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkStreamableHandlerServe measures the server side alone: ServeHTTP
// called directly, without network, for one tools/call, against the bare
// handler.
func BenchmarkStreamableHandlerServe(b *testing.B) {
	server := NewServer("bench", "v1", nil)
	server.AddTools(httpTestTools(nil)...)
	h := NewStreamableHTTPHandler(func(*http.Request) *Server { return server }, nil)
	defer h.Close()
	w := &discardWriter{header: http.Header{}}
	legacy := http.Header{}
	{
		req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		h.ServeHTTP(w, req)
		legacy.Set(headerSessionID, w.header.Get(headerSessionID))
		legacy.Set(headerProtocolVersion, Version20251125)
	}
	modern := http.Header{}
	for k, v := range modernHeaders(MethodCallTool, "echo") {
		modern.Set(k, v)
	}
	for _, tt := range []struct {
		name string
		h    http.Handler
		body string
		hdr  http.Header
	}{
		{"bare", bareHandler(), benchCall, nil},
		{"legacy", h, benchCall, legacy},
		{"modern", h, benchModernCall, modern},
	} {
		b.Run(tt.name, func(b *testing.B) {
			body := []byte(tt.body)
			rd := bytes.NewReader(body)
			req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", rd)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.hdr {
				req.Header[k] = v
			}
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				rd.Reset(body)
				req.Body = io.NopCloser(rd)
				w.header = http.Header{}
				w.status = 0
				tt.h.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
