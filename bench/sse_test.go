package bench

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

func TestFirstSSEData(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"one event", "event: message\ndata: {\"a\":1}\n\n", `{"a":1}`, nil},
		{"CRLF", "id: 1\r\ndata: x\r\n\r\n", "x", nil},
		{"CR", "data: x\rdata: y\r\r", "x\ny", nil},
		{"multi-line data", "data: a\ndata: b\n\n", "a\nb", nil},
		{"comment and priming event first", ": hi\nid: 0\nretry: 10\n\ndata: z\n\n", "z", nil},
		{"no space after colon", "data:z\n\n", "z", nil},
		{"unterminated last event", "data: z", "z", nil},
		{"second event ignored", "data: 1\n\ndata: 2\n\n", "1", nil},
		{"empty data line counts", "data\n\n", "", nil},
		{"no data", "event: x\n\n", "", ErrNoResponse},
		{"empty", "", "", ErrNoResponse},
	}
	for _, tt := range tests {
		got, err := FirstSSEData([]byte(tt.in))
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: err %v, want %v", tt.name, err, tt.err)
			continue
		}
		if err == nil && string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func FuzzFirstSSEData(f *testing.F) {
	for _, s := range []string{"data: x\n\n", "data: a\r\ndata: b\r\n\r\n", ": c\n\n", "data", "\r\r\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		data, err := FirstSSEData(b)
		if err != nil {
			return
		}
		if len(data) > len(b) {
			t.Fatalf("data longer than input: %d > %d", len(data), len(b))
		}
	})
}

func TestParseResponse(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"x":1}}`, `{"x":1}`, true},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`, "", false},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"result":{}}`, "", false},
		{"neither", `{"jsonrpc":"2.0","id":1}`, "", false},
		{"not JSON", `nope`, "", false},
	}
	for _, tt := range tests {
		got, err := ParseResponse([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("%s: err %v, want ok=%v", tt.name, err, tt.ok)
		}
		if tt.ok && string(got) != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","error":{"code":1}}`, `[]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if res, err := ParseResponse(b); err == nil && len(res) == 0 {
			t.Fatal("success without a result")
		}
	})
}

// A resumable stream starts with a priming event (an id, empty data); the
// message is the first event after it with data.
func TestFirstSSEMessageSkipsPriming(t *testing.T) {
	for _, body := range []string{
		"id: s_0\ndata: \n\nid: s_1\ndata: {\"x\":1}\n\n",
		"id: s_0\r\ndata:\r\nretry: 500\r\n\r\ndata: {\"x\":1}\r\n\r\n",
		"data: {\"x\":1}\n\n",
	} {
		got, err := firstSSEMessage([]byte(body))
		if err != nil || string(got) != `{"x":1}` {
			t.Errorf("firstSSEMessage(%q) = %q, %v", body, got, err)
		}
	}
	if _, err := firstSSEMessage([]byte("id: s_0\ndata: \n\n")); !errors.Is(err, ErrNoResponse) {
		t.Errorf("priming event alone: err = %v, want ErrNoResponse", err)
	}
}
