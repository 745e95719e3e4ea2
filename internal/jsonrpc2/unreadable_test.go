package jsonrpc2

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestScanShape(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	tests := []struct {
		name     string
		in       string
		response bool
		id       string // ID.String() of the id read; "null" when none
	}{
		{"result", `{"jsonrpc":"2.0","id":7,"result":{}}`, true, "7"},
		{"string id", `{"jsonrpc":"2.0","id":"a\"b","result":{}}`, true, `"a\"b"`},
		{"error", `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}`, true, "3"},
		{"id after the result", `{"result":{"x":[1,{"y":"}"}]},"jsonrpc":"2.0","id":4}`, true, "4"},
		{"nested too deep", `{"jsonrpc":"2.0","id":5,"result":` + deep + `}`, true, "5"},
		{"nested too deep, id last", `{"jsonrpc":"2.0","result":` + deep + `,"id":6}`, true, "6"},
		{"cut off in the result", `{"jsonrpc":"2.0","id":8,"result":{"text":"aaaa`, true, "8"},
		{"cut off before the id", `{"jsonrpc":"2.0","result":{"text":"aaaa`, true, "null"},
		{"cut off inside the id", `{"jsonrpc":"2.0","result":1,"id":12`, true, "null"},
		{"malformed after the id", `{"jsonrpc":"2.0","id":9,"result":{"a":1,}}`, true, "9"},
		{"escaped member names", `{"\u0069d":10,"r\u0065sult":{}}`, true, "10"},
		{"two ids", `{"id":1,"id":2,"result":{}}`, true, "null"},
		{"fractional id", `{"id":1.5,"result":{}}`, true, "null"},
		{"object id", `{"id":{"a":1},"result":{}}`, true, "null"},
		{"null id", `{"id":null,"error":{"code":-32700,"message":"bad"}}`, true, "null"},
		{"result and error", `{"jsonrpc":"2.0","id":11,"result":{},"error":{}}`, true, "11"},
		{"request", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"result":1}}`, false, "null"},
		{"request with a result member", `{"jsonrpc":"2.0","id":1,"method":"m","result":1}`, false, "null"},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/message"}`, false, "null"},
		{"neither", `{"jsonrpc":"2.0","id":1}`, false, "null"},
		{"a banner", `Starting server on stdio...`, false, "null"},
		{"an array", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, false, "null"},
		{"empty", ``, false, "null"},
		{"unterminated name", `{"res`, false, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, response := scanShape([]byte(tt.in))
			if response != tt.response || id.String() != tt.id {
				t.Fatalf("scanShape = id %s, response %v; want id %s, response %v", id, response, tt.id, tt.response)
			}
		})
	}
}

// FuzzScanShape checks scanShape against the decoder: on any input it
// returns, and on every message the decoder accepts it agrees with the
// decoder about whether it is a response and about its id.
func FuzzScanShape(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"result":[1,"]"],"jsonrpc":"2.0","id":"x"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":""}}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"result":1}}`,
		`{"\u0069d":2,"jsonrpc":"2.0","result":1}`,
		`{"jsonrpc":"2.0","id":3,"result":{"a":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id, response := scanShape(data)
		msg, err := Decode(data)
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *Response:
			if !response || id != m.ID {
				t.Fatalf("scanShape(%s) = id %s, response %v; the decoder read a response with id %s", data, id, response, m.ID)
			}
		case *Request:
			if response {
				t.Fatalf("scanShape(%s) says response; the decoder read a request", data)
			}
		}
	})
}

// TestUnreadableResponseFailsItsCall sends two calls and answers the first
// with a line that cannot be read. The rule of unreadable.go: a response
// whose id can be read fails that call alone; one whose id cannot be read
// fails both; anything that is not a response fails nothing and is answered
// as bad input. In every case the connection goes on.
func TestUnreadableResponseFailsItsCall(t *testing.T) {
	// The raw peer's connection reads at most 1024 bytes a line.
	long := strings.Repeat("a", 2000)
	tests := []struct {
		name    string
		line    string // %[1]s is the first call's id
		failsB  bool   // the second call fails too
		reason  error  // what the first call's error wraps besides ErrUnreadableResponse
		answers bool   // the connection answers the line as bad input
	}{
		{name: "malformed", line: `{"jsonrpc":"2.0","id":%[1]s,"result":{"a":1,}}`, reason: ErrParse},
		{name: "nested too deep", line: `{"jsonrpc":"2.0","id":%[1]s,"result":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, reason: ErrInvalidRequest},
		{name: "result and error", line: `{"jsonrpc":"2.0","id":%[1]s,"result":{},"error":{"code":1,"message":"x"}}`, reason: ErrInvalidRequest},
		{name: "wrong version", line: `{"jsonrpc":"1.0","id":%[1]s,"result":{}}`, reason: ErrInvalidRequest},
		{name: "too large", line: `{"jsonrpc":"2.0","id":%[1]s,"result":"` + long + `"}`, reason: ErrMessageTooLarge},
		{name: "too large, id past the limit", line: `{"jsonrpc":"2.0","result":"` + long + `","id":%[1]s}`, failsB: true, reason: ErrMessageTooLarge},
		{name: "malformed id", line: `{"jsonrpc":"2.0","id":%[1]s.,"result":{}}`, failsB: true, reason: ErrParse},
		{name: "a banner", line: `Server listening on stdio`, answers: true},
		{name: "a malformed notification", line: `{"jsonrpc":"2.0","method":"notifications/message","params":{,}}`, answers: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, conn := newRawPeer(t, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a hang guard only
			defer cancel()
			idA, idB, results := startTwoCalls(t, ctx, p, conn)
			if _, err := io.WriteString(p.w, fmt.Sprintf(tt.line, idA)+"\n"); err != nil {
				t.Fatal(err)
			}
			if tt.answers {
				got, err := p.r.ReadString('\n')
				if err != nil || !strings.Contains(got, `"error"`) {
					t.Fatalf("answer to the bad line: %q, %v", got, err)
				}
			} else {
				err := <-results[idA]
				if !errors.Is(err, ErrUnreadableResponse) || !errors.Is(err, tt.reason) {
					t.Fatalf("first call: %v; want an error wrapping ErrUnreadableResponse and %v", err, tt.reason)
				}
			}
			// What is still pending gets its answer: the connection goes on.
			pending := []ID{idB}
			if tt.answers {
				pending = append(pending, idA)
			}
			if tt.failsB {
				if err := <-results[idB]; !errors.Is(err, ErrUnreadableResponse) {
					t.Fatalf("second call: %v; want ErrUnreadableResponse (an unknown id fails every pending call)", err)
				}
				pending = nil
			}
			for _, id := range pending {
				answerRaw(t, p, id)
				if err := <-results[id]; err != nil {
					t.Fatalf("call %s after the bad line: %v", id, err)
				}
			}
			checkLaterCall(t, ctx, p, conn)
		})
	}
}

// startTwoCalls makes two calls on conn and reads both requests from p,
// so that both are pending; their results arrive on results.
func startTwoCalls(t *testing.T, ctx context.Context, p *rawPeer, conn *Conn) (idA, idB ID, results map[ID]chan error) {
	t.Helper()
	idA, idB = conn.NewCallID(), conn.NewCallID()
	results = map[ID]chan error{idA: make(chan error, 1), idB: make(chan error, 1)}
	for id, ch := range results {
		go func() {
			_, err := conn.CallWithID(ctx, id, "m", nil)
			ch <- err
		}()
	}
	for range 2 {
		if _, err := p.r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	return idA, idB, results
}

// answerRaw writes an empty result for the call id as the peer p.
func answerRaw(t *testing.T, p *rawPeer, id ID) {
	t.Helper()
	if _, err := io.WriteString(p.w, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", id)); err != nil {
		t.Fatal(err)
	}
}

// checkLaterCall makes one more call on conn, which p answers: the
// connection goes on.
func checkLaterCall(t *testing.T, ctx context.Context, p *rawPeer, conn *Conn) {
	t.Helper()
	later := make(chan error, 1)
	go func() {
		_, err := conn.Call(ctx, "later", nil)
		later <- err
	}()
	req, err := p.r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	msg, err := Decode([]byte(req))
	call, ok := msg.(*Request)
	if err != nil || !ok {
		t.Fatalf("the connection wrote %q, want the later call (%v)", req, err)
	}
	answerRaw(t, p, call.ID)
	if err := <-later; err != nil {
		t.Fatalf("a later call: %v", err)
	}
}

// endlessLine is a reader of one line that starts with head and then goes
// on with 'a' for size bytes before it ends with tail; it counts what it
// has served.
type endlessLine struct {
	head, tail string
	size       int64
	served     int64
}

// as is what endlessLine's body is copied from.
var as = []byte(strings.Repeat("a", 64<<10))

func (r *endlessLine) Read(p []byte) (int, error) {
	head, body := int64(len(r.head)), r.size
	n := 0
	for n < len(p) {
		pos := r.served
		var k int
		switch {
		case pos < head:
			k = copy(p[n:], r.head[pos:])
		case pos < head+body:
			k = copy(p[n:min(len(p), n+int(min(int64(len(as)), head+body-pos)))], as)
		case pos < head+body+int64(len(r.tail)):
			k = copy(p[n:], r.tail[pos-head-body:])
		default:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		n += k
		r.served += int64(k)
	}
	return n, nil
}

// TestLineStreamStopsAtTheLimit reads a 512 MiB line from a reader that
// makes it up as it goes. A response is reported once the limit (and one
// read buffer) has been read, naming the call it answers, and the next Read
// skips the rest of it. A request is reported once read to its end, as its
// answer must come after it. Either way the message after it is read.
func TestLineStreamStopsAtTheLimit(t *testing.T) {
	const limit = 1 << 20
	const size = 512 << 20
	tests := []struct {
		name       string
		head       string
		response   bool
		maxServed  int64 // bytes read when the line is reported
		afterwards string
	}{
		{"response", `{"jsonrpc":"2.0","id":42,"result":{"text":"`, true, limit + 128<<10, `{"jsonrpc":"2.0","id":43,"result":{}}`},
		{"request", `{"jsonrpc":"2.0","id":42,"method":"m","params":{"text":"`, false, size + 1<<10, `{"jsonrpc":"2.0","id":43,"result":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &endlessLine{head: tt.head, size: size, tail: `"}}` + "\n" + tt.afterwards + "\n"}
			s := NewLineStream(r, io.Discard, nil, &StreamOptions{MaxMessageSize: limit})
			_, err := s.Read(context.Background())
			var derr *DecodeError
			if !errors.As(err, &derr) || !errors.Is(err, ErrMessageTooLarge) || derr.Response != tt.response {
				t.Fatalf("Read = %v (%+v); want a *DecodeError wrapping ErrMessageTooLarge, Response %v", err, derr, tt.response)
			}
			if tt.response && derr.ID != Int64ID(42) {
				t.Fatalf("ID = %s, want 42", derr.ID)
			}
			if r.served > tt.maxServed {
				t.Fatalf("read %d bytes before reporting the line; want at most %d", r.served, tt.maxServed)
			}
			if !tt.response && r.served < size {
				t.Fatalf("read %d bytes before reporting the request; want its whole line", r.served)
			}
			msg, err := s.Read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if resp, ok := msg.(*Response); !ok || resp.ID != Int64ID(43) {
				t.Fatalf("after the long line: %+v, want response 43", msg)
			}
		})
	}
}
