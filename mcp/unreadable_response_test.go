package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// hugeReplySize is the size of the line a "huge" bad server answers
// initialize with: written as it goes, never held in memory.
const hugeReplySize = 512 << 20

// writeBadReply writes kind's answer to the request id (JSON) to w:
//
//   - "huge": a 512 MiB line with the id first;
//   - "huge-id-last": a 512 MiB line whose id comes last, past any limit;
//   - "deep": a result of 100,000 nested objects;
//   - "malformed": a result that is not valid JSON.
//
// It returns the first write error: the client stopped reading.
func writeBadReply(w io.Writer, kind, id string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch kind {
	case "huge", "huge-id-last":
		if kind == "huge" {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","instructions":"`, id)
		} else {
			fmt.Fprint(bw, `{"jsonrpc":"2.0","result":{"protocolVersion":"2025-11-25","instructions":"`)
		}
		chunk := []byte(strings.Repeat("a", 64<<10))
		for written := 0; written < hugeReplySize; written += len(chunk) {
			if _, err := bw.Write(chunk); err != nil {
				return err
			}
		}
		if kind == "huge" {
			bw.WriteString(`"}}` + "\n")
		} else {
			fmt.Fprintf(bw, `"},"id":%s}`+"\n", id)
		}
	case "deep":
		fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":`, id)
		bw.WriteString(strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000))
		bw.WriteString("}\n")
	case "malformed":
		fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25",}}`+"\n", id)
	}
	return bw.Flush()
}

// serveBadReply is the child process of a legacy stdio server that answers
// initialize with a reply the client cannot accept (writeBadReply's kind)
// and every other request with "method not found". It exits as soon as its
// stdin closes, even in the middle of a reply.
func serveBadReply(kind string) {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		msg, err := DecodeMessage(line)
		req, ok := msg.(*JSONRPCRequest)
		if err != nil || !ok || req.IsNotification() {
			continue
		}
		id, _ := req.ID.MarshalJSON()
		if req.Method != MethodInitialize {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", id)
			continue
		}
		go func() {
			_, _ = io.Copy(io.Discard, in)
			os.Exit(0)
		}()
		if writeBadReply(os.Stdout, kind, string(id)) != nil {
			os.Exit(0)
		}
		time.Sleep(time.Hour) // until the client closes stdin
	}
}

// TestStdioReplyTheClientCannotRead connects to a stdio server that answers
// initialize with a reply the client cannot accept. Connect fails with
// ErrUnreadableResponse, saying why, as soon as the reply arrives (for the
// 512 MiB line: once the client has read its limit of it); the context's
// deadline is only a guard against a hang, which is what the client did
// before.
func TestStdioReplyTheClientCannotRead(t *testing.T) {
	tests := []struct {
		kind, why string
	}{
		{"huge", "message too large"},
		{"huge-id-last", "message too large"},
		{"deep", "nesting too deep"},
		{"malformed", "parse error"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			cmd := childCommand("bad-reply")
			cmd.Env = append(cmd.Env, "MCP_TEST_REPLY="+tt.kind)
			cmd.Stderr = io.Discard
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard only
			defer cancel()
			_, err := NewClient("c", "v1", nil).Connect(ctx, NewCommandTransport(cmd, nil))
			if !errors.Is(err, ErrUnreadableResponse) || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("Connect = %v; want ErrUnreadableResponse saying %q", err, tt.why)
			}
			if ctx.Err() != nil {
				t.Fatal("the hang guard expired")
			}
		})
	}
}

// A payloadWriter writes the data of the answer to the request id; a
// replyWriter writes the whole HTTP response.
type (
	payloadWriter func(w io.Writer, id string) error
	replyWriter   func(w http.ResponseWriter, id string) error
)

// sseReply answers with an SSE stream of one message event (with
// eventID, if not empty) whose data is data's.
func sseReply(eventID string, data payloadWriter) replyWriter {
	return func(w http.ResponseWriter, id string) error {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		if eventID != "" {
			fmt.Fprintf(w, "id: %s\n", eventID)
		}
		fmt.Fprint(w, "event: message\ndata: ")
		if err := data(w, id); err != nil {
			return err
		}
		_, err := fmt.Fprint(w, "\n\n")
		return err
	}
}

// jsonReply answers with a JSON body of data's.
func jsonReply(data payloadWriter) replyWriter {
	return func(w http.ResponseWriter, id string) error {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		return data(w, id)
	}
}

// badPayload writes writeBadReply's answer of kind, on one line.
func badPayload(kind string) payloadWriter {
	return func(w io.Writer, id string) error {
		var sb strings.Builder
		if err := writeBadReply(&sb, kind, id); err != nil {
			return err
		}
		_, err := io.WriteString(w, strings.TrimSuffix(sb.String(), "\n"))
		return err
	}
}

// tooLargePayload writes the start of an answer longer than limit.
func tooLargePayload(limit int) payloadWriter {
	return func(w io.Writer, id string) error {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"instructions":"`, id)
		_, err := io.WriteString(w, strings.Repeat("a", 2*limit))
		return err
	}
}

// badReplyServer starts a streamable HTTP server that answers every
// request with reply, keeping an SSE stream open until the test ends.
func badReplyServer(t *testing.T, reply replyWriter) *httptest.Server {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		msg, err := DecodeMessage(body)
		req, ok := msg.(*JSONRPCRequest)
		if err != nil || !ok || req.IsNotification() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		id, _ := req.ID.MarshalJSON()
		if reply(w, string(id)) != nil {
			return
		}
		w.(http.Flusher).Flush()
		if w.Header().Get("Content-Type") != "text/event-stream" {
			return // a JSON body ends here
		}
		select { // the stream stays open
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	return srv
}

// TestStreamableReplyTheClientCannotRead is the same over streamable HTTP:
// the server answers initialize with an SSE stream whose event the client
// cannot read, and keeps the stream open. Before, a malformed or too deep
// event was skipped and the call waited on the open stream; an event over
// the limit with an event id was resumed, to be sent again. A JSON body
// that cannot be read failed at once already; its error now says so too.
func TestStreamableReplyTheClientCannotRead(t *testing.T) {
	const limit = 1 << 20
	tests := []struct {
		name  string
		reply replyWriter
		why   string
	}{
		{"SSE, malformed", sseReply("", badPayload("malformed")), "parse error"},
		{"SSE, nested too deep", sseReply("", badPayload("deep")), "nesting too deep"},
		{"SSE, nested too deep, with an event id", sseReply("1", badPayload("deep")), "nesting too deep"},
		{"SSE, over the limit", sseReply("", tooLargePayload(limit)), "too large"},
		{"SSE, over the limit, with an event id", sseReply("1", tooLargePayload(limit)), "too large"},
		{"JSON, malformed", jsonReply(badPayload("malformed")), "parse error"},
		{"JSON, over the limit", jsonReply(tooLargePayload(limit)), "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := badReplyServer(t, tt.reply)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard only
			defer cancel()
			client := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125})
			_, err := client.Connect(ctx, NewStreamableClientTransport(srv.URL, &StreamableClientTransportOptions{MaxEventSize: limit}))
			if !errors.Is(err, ErrUnreadableResponse) || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("Connect = %v; want ErrUnreadableResponse saying %q", err, tt.why)
			}
			if ctx.Err() != nil {
				t.Fatal("the hang guard expired")
			}
		})
	}
}
