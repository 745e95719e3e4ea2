package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gomcp/sdk/internal/jsonrpc2"
)

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestReadLimited(t *testing.T) {
	const limit = 100 << 10
	big := bytes.Repeat([]byte("0123456789"), 30<<10) // 300 KiB
	tests := []struct {
		name     string
		body     []byte
		size     int64 // announced length; -1 for none
		tooLarge bool
		maxRead  int // bytes the reader may consume
	}{
		{"empty, length known", nil, 0, false, 0},
		{"empty, chunked", nil, -1, false, 0},
		{"small, length known", []byte(`{"a":1}`), 7, false, 7},
		{"small, chunked", []byte(`{"a":1}`), -1, false, 7},
		{"several pieces, chunked", big[:limit-3], -1, false, limit - 3},
		{"exactly the limit, chunked", big[:limit], -1, false, limit},
		{"exactly the limit, length known", big[:limit], limit, false, limit},
		{"one over the limit, chunked", big[:limit+1], -1, true, limit + 1},
		{"far over the limit, chunked", big, -1, true, limit + 1},
		{"over the limit, length known", big, int64(len(big)), true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// HalfReader makes reads short, as a network does; DataErrReader
			// gives EOF with the last bytes.
			for _, wrap := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.HalfReader, iotest.DataErrReader} {
				cr := &countingReader{r: wrap(bytes.NewReader(tt.body))}
				got, err := readLimited(cr, tt.size, limit)
				if cr.n > tt.maxRead {
					t.Errorf("read %d bytes, at most %d allowed", cr.n, tt.maxRead)
				}
				if tt.tooLarge {
					if !errors.Is(err, ErrResponseTooLarge) {
						t.Fatalf("err = %v, want ErrResponseTooLarge", err)
					}
					if !strings.Contains(err.Error(), strconv.Itoa(limit)) {
						t.Errorf("error %q does not name the limit", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, tt.body) {
					t.Fatalf("got %d bytes, want the %d sent", len(got), len(tt.body))
				}
			}
		})
	}
}

func TestReadLimitedShortBody(t *testing.T) {
	if _, err := readLimited(strings.NewReader("abc"), 10, 100); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want io.ErrUnexpectedEOF for a body shorter than announced", err)
	}
}

// TestStreamableClientResponseOverMaxEventSize: a server answering a
// tools/call with a JSON body larger than the client's MaxEventSize gets a
// clear error, and the client holds no more than the limit of it, whether
// the body announces its length or is chunked.
func TestStreamableClientResponseOverMaxEventSize(t *testing.T) {
	const limit = 1 << 20
	const bodySize = 32 << 20
	piece := bytes.Repeat([]byte("x"), 64<<10)
	for _, announce := range []bool{true, false} {
		t.Run("Content-Length "+strconv.FormatBool(announce), func(t *testing.T) {
			huge := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					if !bytes.Contains(body, []byte(`"tools/call"`)) {
						r.Body = io.NopCloser(bytes.NewReader(body))
						next.ServeHTTP(w, r)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					if announce {
						w.Header().Set("Content-Length", strconv.Itoa(bodySize))
					}
					for sent := 0; sent < bodySize; sent += len(piece) {
						if _, err := w.Write(piece); err != nil {
							return // the client stopped reading
						}
					}
				})
			}
			_, _, ts, _ := newHTTPTestWrapped(t, nil, nil, huge)
			ct := NewStreamableClientTransport(ts.URL, &StreamableClientTransportOptions{MaxEventSize: limit})
			cs, err := NewClient("c", "v1", nil).Connect(context.Background(), ct)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = cs.CallTool(context.Background(), "echo", map[string]any{"text": "hi"}, nil)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrResponseTooLarge) {
				t.Fatalf("err = %v, want ErrResponseTooLarge", err)
			}
			// The limit, its reading pieces and the client's own work,
			// far from the 32 MiB sent (the server's side writes from
			// one shared piece).
			if got := after.TotalAlloc - before.TotalAlloc; got > 4*limit {
				t.Errorf("the call allocated %d bytes for a %d-byte limit", got, limit)
			}
		})
	}
}

// TestJSONResponseAnnouncesItsLength checks that a JSON response of any
// size reaches the client with its length (Content-Length), which
// readLimited sizes its one buffer by: net/http announces a short body
// itself, and writeJSONResponse a longer one, which net/http would chunk.
func TestJSONResponseAnnouncesItsLength(t *testing.T) {
	for _, size := range []int{100, 2000, 3000, 100 << 10} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			text := strings.Repeat("x", size)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_ = writeJSONResponse(w, http.StatusOK, jsonrpc2.NewResponse(jsonrpc2.Int64ID(1), text, nil))
			}))
			defer srv.Close()
			resp, err := srv.Client().Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.ContentLength != int64(len(body)) || len(body) < size {
				t.Errorf("Content-Length %d for a body of %d bytes (chunked: %v)", resp.ContentLength, len(body), resp.TransferEncoding)
			}
		})
	}
}
