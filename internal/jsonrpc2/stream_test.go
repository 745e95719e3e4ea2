package jsonrpc2

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

func TestLineStreamRead(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":9,"method":"` + strings.Repeat("x", 300) + `"}`
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"a"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"b"}` + "\r",
		long,
		`not json`,
		`{"jsonrpc":"2.0","id":3,"method":"c"}`, // last line without newline
	}, "\n")
	s := NewLineStream(strings.NewReader(input), io.Discard, nopCloser{}, &StreamOptions{MaxMessageSize: 100})
	ctx := context.Background()
	want := []struct {
		method string
		err    error
	}{{"a", nil}, {"b", nil}, {"", ErrMessageTooLarge}, {"", ErrParse}, {"c", nil}}
	for i, w := range want {
		msg, err := s.Read(ctx)
		if w.err != nil {
			if !errors.Is(err, w.err) {
				t.Fatalf("message %d: error %v, want %v", i, err, w.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if got := msg.(*Request).Method; got != w.method {
			t.Fatalf("message %d: method %q, want %q", i, got, w.method)
		}
	}
	if _, err := s.Read(ctx); err != io.EOF {
		t.Fatalf("at end: %v, want io.EOF", err)
	}
}

func TestLineStreamLongLineAcrossBuffer(t *testing.T) {
	// A message larger than the 64 KiB read buffer but under the limit.
	big := `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"` + strings.Repeat("y", 200<<10) + `"}}`
	s := NewLineStream(strings.NewReader(big+"\n"+big+"\n"), io.Discard, nil, nil)
	for range 2 {
		msg, err := s.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n := len(msg.(*Request).Params); n != 200<<10+8 {
			t.Fatalf("params length %d", n)
		}
	}
}

func TestLineStreamWrite(t *testing.T) {
	var sb strings.Builder
	s := NewLineStream(strings.NewReader(""), &sb, nil, nil)
	req, _ := NewCall(Int64ID(1), "ping", nil)
	if err := s.Write(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(context.Background(), NewResponse(StringID("x"), map[string]int{"a": 1}, nil)); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"x","result":{"a":1}}` + "\n"
	if sb.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", sb.String(), want)
	}
}

func FuzzLineStream(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n\n[1,2]\n"))
	f.Add([]byte("\r\n\r\n{"))
	f.Add([]byte(strings.Repeat("x", 300) + "\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewLineStream(strings.NewReader(string(data)), io.Discard, nil, &StreamOptions{MaxMessageSize: 128})
		for i := 0; i < len(data)+2; i++ {
			_, err := s.Read(context.Background())
			if err == io.EOF {
				return
			}
			var derr *DecodeError
			if err != nil && !errors.As(err, &derr) {
				t.Fatalf("unexpected error %v", err)
			}
		}
		t.Fatal("stream did not reach EOF")
	})
}
