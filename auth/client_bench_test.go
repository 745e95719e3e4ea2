package auth

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// okTransport answers every request with an empty 200, so the benchmark
// measures the Transport alone.
type okTransport struct{}

func (okTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// BenchmarkTransportWithToken is the cost the Transport adds to a request
// once it holds a valid token, for a body without GetBody (buffered) and
// with one.
func BenchmarkTransportWithToken(b *testing.B) {
	for _, dpop := range []bool{false, true} {
		name := "Bearer"
		if dpop {
			name = "DPoP"
		}
		b.Run(name, func(b *testing.B) {
			tr, err := NewTransport("https://mcp.example.com/mcp", &TransportOptions{Grant: ClientCredentialsGrant{}, Base: okTransport{}})
			if err != nil {
				b.Fatal(err)
			}
			tr.tok, tr.gen = &Token{AccessToken: "access-token-value", TokenType: "Bearer"}, 1
			if dpop {
				tr.dpop, _ = NewDPoPProver(nil, "")
				tr.tok.TokenType = "DPoP"
			}
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(body))
				resp, err := tr.RoundTrip(req)
				if err != nil || resp.StatusCode != 200 {
					b.Fatal(resp, err)
				}
			}
		})
	}
}
