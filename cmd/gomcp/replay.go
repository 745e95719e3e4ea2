package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A step is one message of a transcript.
type step struct {
	fromClient bool
	msg        mcp.JSONRPCMessage
	raw        []byte
}

// parseTranscript reads the steps of a txtar transcript.
func parseTranscript(data []byte) ([]step, error) {
	ar := txtar.Parse(data)
	steps := make([]step, 0, len(ar.Files))
	for i, f := range ar.Files {
		if f.Name != "client" && f.Name != "server" {
			return nil, fmt.Errorf("section %d: name %q, want client or server", i+1, f.Name)
		}
		raw := []byte(strings.TrimSpace(string(f.Data)))
		msg, err := mcp.DecodeMessage(raw)
		if err != nil {
			return nil, fmt.Errorf("section %d (%s): %w", i+1, f.Name, err)
		}
		steps = append(steps, step{fromClient: f.Name == "client", msg: msg, raw: raw})
	}
	return steps, nil
}

// A replayer plays the server's side of a transcript: each client message
// must match the next one recorded (same method and params, _meta and ids
// aside); the server messages recorded after it are then sent, with
// response ids mapped to the live requests'.
type replayer struct {
	steps []step
	pos   int
	ids   map[mcp.JSONRPCID]mcp.JSONRPCID // recorded request id -> live id
	out   func(mcp.JSONRPCMessage) error
}

// flush sends the server messages at the current position.
func (r *replayer) flush() error {
	for r.pos < len(r.steps) && !r.steps[r.pos].fromClient {
		msg := r.steps[r.pos].msg
		if resp, ok := msg.(*mcp.JSONRPCResponse); ok {
			if live, ok := r.ids[resp.ID]; ok {
				copied := *resp
				copied.ID = live
				msg = &copied
			}
		}
		if err := r.out(msg); err != nil {
			return err
		}
		r.pos++
	}
	return nil
}

// receive handles one message from the client.
func (r *replayer) receive(msg mcp.JSONRPCMessage) error {
	if r.pos < len(r.steps) && sameMessage(r.steps[r.pos].msg, msg) {
		if req, ok := msg.(*mcp.JSONRPCRequest); ok && req.ID.IsValid() {
			r.ids[r.steps[r.pos].msg.(*mcp.JSONRPCRequest).ID] = req.ID
		}
		r.pos++
		return r.flush()
	}
	req, ok := msg.(*mcp.JSONRPCRequest)
	if !ok || !req.ID.IsValid() {
		return nil // an unexpected notification or response is dropped
	}
	want := "the end of the transcript"
	if r.pos < len(r.steps) {
		want = describeMessage(r.steps[r.pos].msg)
		if rec, ok := r.steps[r.pos].msg.(*mcp.JSONRPCRequest); ok && rec.Method == req.Method {
			want += " with other params"
		}
	}
	return r.out(&mcp.JSONRPCResponse{ID: req.ID, Error: &mcp.JSONRPCError{
		Code:    mcp.CodeInvalidRequest,
		Message: fmt.Sprintf("replay: got %s, the transcript expects %s", describeMessage(msg), want),
	}})
}

func describeMessage(m mcp.JSONRPCMessage) string {
	switch m := m.(type) {
	case *mcp.JSONRPCRequest:
		if m.ID.IsValid() {
			return "request " + m.Method
		}
		return "notification " + m.Method
	case *mcp.JSONRPCResponse:
		return "a response"
	}
	return "a batch"
}

// sameMessage compares a recorded client message with a live one: the
// method and params of requests (without _meta), the kind of responses.
func sameMessage(recorded, live mcp.JSONRPCMessage) bool {
	switch rec := recorded.(type) {
	case *mcp.JSONRPCRequest:
		l, ok := live.(*mcp.JSONRPCRequest)
		return ok && rec.Method == l.Method && rec.ID.IsValid() == l.ID.IsValid() && sameParams(rec.Params, l.Params)
	case *mcp.JSONRPCResponse:
		l, ok := live.(*mcp.JSONRPCResponse)
		return ok && (rec.Error == nil) == (l.Error == nil)
	}
	return false
}

func sameParams(a, b []byte) bool {
	var x, y map[string]any
	if len(a) > 0 && strictjson.Unmarshal(a, &x) != nil {
		return false
	}
	if len(b) > 0 && strictjson.Unmarshal(b, &y) != nil {
		return false
	}
	delete(x, "_meta")
	delete(y, "_meta")
	if len(x) == 0 && len(y) == 0 {
		return true
	}
	return reflect.DeepEqual(x, y)
}

func cmdReplay(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) != 1 || len(c.command) > 0 {
		return usageError("replay: gomcp replay FILE.txtar")
	}
	data, err := os.ReadFile(c.positional[0])
	if err != nil {
		return usageError("replay: %v", err)
	}
	steps, err := parseTranscript(data)
	if err != nil {
		return usageError("replay: %s: %v", c.positional[0], err)
	}
	r := &replayer{steps: steps, ids: map[mcp.JSONRPCID]mcp.JSONRPCID{}, out: func(m mcp.JSONRPCMessage) error {
		b, err := mcp.EncodeMessage(m)
		if err != nil {
			return err
		}
		_, err = c.env.stdout.Write(append(b, '\n'))
		return err
	}}
	if err := r.flush(); err != nil {
		return err
	}
	sc := bufio.NewScanner(c.env.stdin)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() && ctx.Err() == nil {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		msg, err := mcp.DecodeMessage([]byte(line))
		if err != nil {
			if werr := r.out(&mcp.JSONRPCResponse{Error: &mcp.JSONRPCError{Code: mcp.CodeParseError, Message: err.Error()}}); werr != nil {
				return werr
			}
			continue
		}
		if err := r.receive(msg); err != nil {
			return err
		}
	}
	return nil
}
