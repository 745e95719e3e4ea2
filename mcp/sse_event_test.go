package mcp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func parseAllSSE(t testing.TB, stream string, max int) ([]sseEvent, error) {
	t.Helper()
	r := newSSEReader(strings.NewReader(stream), max)
	var out []sseEvent
	for {
		ev, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		ev.Data = bytes.Clone(ev.Data)
		out = append(out, ev)
	}
}

func TestSSEReader(t *testing.T) {
	type ev struct {
		name, id, data string
		retry          time.Duration
	}
	tests := []struct {
		name   string
		stream string
		want   []ev
	}{
		{"one event", "data: hello\n\n", []ev{{"message", "", "hello", -1}}},
		{"named event", "event: endpoint\ndata: /m?sessionId=1\n\n", []ev{{"endpoint", "", "/m?sessionId=1", -1}}},
		{"lines joined with LF", "data: a\ndata: b\n\n", []ev{{"message", "", "a\nb", -1}}},
		{"CRLF line endings", "data: a\r\ndata: b\r\n\r\n", []ev{{"message", "", "a\nb", -1}}},
		{"CR line endings", "data: a\rdata: b\r\r", []ev{{"message", "", "a\nb", -1}}},
		{"no space after colon", "data:x\n\n", []ev{{"message", "", "x", -1}}},
		{"only one space is removed", "data:  x\n\n", []ev{{"message", "", " x", -1}}},
		{"field without colon", "data\n\n", []ev{{"message", "", "", -1}}},
		{"comments are skipped", ": keep-alive\n\n:\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"id and data", "id: 7_1\ndata: x\n\n", []ev{{"message", "7_1", "x", -1}}},
		{"priming event", "id: 7_0\ndata:\n\n", []ev{{"message", "7_0", "", -1}}},
		{"id alone is reported", "id: 3\n\n", []ev{{"message", "3", "", -1}}},
		{"id with NUL is ignored", "id: a\x00b\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"retry alone is reported", "retry: 500\n\n", []ev{{"message", "", "", 500 * time.Millisecond}}},
		{"bad retry is ignored", "retry: 5x\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"unknown fields are ignored", "foo: bar\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"byte order mark", "\xEF\xBB\xBFdata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"event cut off at EOF is dropped", "data: x\n\ndata: y\n", []ev{{"message", "", "x", -1}}},
		{"empty block is not an event", "\n\n\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
		{"event name does not leak", "event: a\n\ndata: x\n\n", []ev{{"message", "", "x", -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseAllSSE(t, tt.stream, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d events %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Name != w.name || g.ID != w.id || string(g.Data) != w.data || g.Retry != w.retry || g.HasID != (w.id != "") {
					t.Errorf("event %d: %+v (data %q), want %+v", i, g, g.Data, w)
				}
			}
		})
	}
}

func TestSSEReaderLimit(t *testing.T) {
	for _, stream := range []string{
		"data: " + strings.Repeat("x", 200) + "\n\n",
		strings.Repeat("data: 0123456789\n", 20) + "\n",
		strings.Repeat("x", 300), // a line with no end
	} {
		if _, err := parseAllSSE(t, stream, 100); !errors.Is(err, ErrSSEEventTooLarge) {
			t.Errorf("%.20q...: %v, want ErrSSEEventTooLarge", stream, err)
		}
	}
}

func TestSSEWriteRead(t *testing.T) {
	data := []byte("{\n \"a\": \"b\"\r\n}")
	b := appendSSEEvent(nil, "message", "1_2", data)
	b = appendSSERetry(b, 250*time.Millisecond)
	got, err := parseAllSSE(t, string(b), 0)
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if string(got[0].Data) != "{\n \"a\": \"b\"\n\n}" || got[0].ID != "1_2" {
		t.Errorf("data %q id %q", got[0].Data, got[0].ID)
	}
	if got[1].Retry != 250*time.Millisecond {
		t.Errorf("retry %v", got[1].Retry)
	}
}

// FuzzSSEReader feeds arbitrary bytes to the SSE parser: it must not panic
// or return an event over its limit.
func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{
		"data: hello\n\n",
		"event: endpoint\r\ndata: /x\r\n\r\n",
		"id: 1\rretry: 10\r\r",
		": comment\ndata\n\n",
		"\xEF\xBB\xBFdata: x\n\n",
		"data: a\ndata: b\n\ndata: c",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := newSSEReader(bytes.NewReader(stream), 64)
		for range 1000 {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if len(ev.Data) > 64 {
				t.Fatalf("event of %d bytes over the limit of 64", len(ev.Data))
			}
			if bytes.ContainsAny([]byte(ev.ID), "\x00\r\n") {
				t.Fatalf("id %q", ev.ID)
			}
		}
	})
}

// FuzzSSERoundTrip checks that any data written as an event reads back,
// with line breaks normalized to LF.
func FuzzSSERoundTrip(f *testing.F) {
	f.Add("message", "1_1", []byte(`{"jsonrpc":"2.0"}`))
	f.Add("", "", []byte("a\r\nb\rc\n"))
	f.Add("endpoint", "x", []byte(""))
	f.Fuzz(func(t *testing.T, name, id string, data []byte) {
		if strings.ContainsAny(name, "\r\n") || strings.ContainsAny(id, "\x00\r\n") ||
			strings.HasPrefix(name, " ") || strings.HasPrefix(id, " ") || bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
			t.Skip()
		}
		got, err := parseAllSSE(t, string(appendSSEEvent(nil, name, id, data)), 1<<20)
		if err != nil || len(got) != 1 {
			t.Fatalf("%+v %v", got, err)
		}
		want := bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
		// appendSSEEvent splits "\r\n" into two lines.
		want2 := bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
		if !bytes.Equal(got[0].Data, want2) && !bytes.Equal(got[0].Data, want) {
			t.Fatalf("data %q, want %q", got[0].Data, want2)
		}
		wantName := name
		if wantName == "" {
			wantName = "message"
		}
		if got[0].Name != wantName || got[0].ID != id {
			t.Fatalf("name %q id %q", got[0].Name, got[0].ID)
		}
	})
}
