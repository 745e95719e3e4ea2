package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

// TestRecordReplay records sessions with the everything-server through
// gomcp record, then replays each transcript with gomcp replay: the
// client's output must be the same, in both eras.
func TestRecordReplay(t *testing.T) {
	calls := [][]string{
		{"call", "--json", "greet", "name=Ada"},
		{"tools", "--json"},
		{"read", "--json", "test://static-text"},
		{"call", "--json", "test_error_handling"},
	}
	for _, era := range eras {
		for _, call := range calls {
			t.Run(era+"/"+strings.Join(call, " "), func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "session.txtar")
				args := append(append([]string{}, call...), "--protocol", era, "--")
				recorded := runCLI(t, append(args, selfMain("record", "--out", file, "--", everythingBin)...)...)
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				steps, err := parseTranscript(data)
				if err != nil || len(steps) < 2 || !steps[0].fromClient {
					t.Fatalf("transcript: %d steps, %v\n%s", len(steps), err, data)
				}
				replayed := runCLI(t, append(args, selfMain("replay", file)...)...)
				if replayed.code != recorded.code || replayed.stdout != recorded.stdout {
					t.Fatalf("replay: exit %d, %q\nrecorded: exit %d, %q\nstderr: %s", replayed.code, replayed.stdout, recorded.code, recorded.stdout, replayed.stderr)
				}
			})
		}
	}
}

// TestReplayMismatch checks that a request the transcript does not expect
// gets a JSON-RPC error naming what was expected.
func TestReplayMismatch(t *testing.T) {
	file := filepath.Join(t.TempDir(), "session.txtar")
	r := runCLI(t, append([]string{"call", "greet", "name=Ada", "--"}, selfMain("record", "--out", file, "--", everythingBin)...)...)
	if r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	r = runCLI(t, append([]string{"call", "greet", "name=Bob", "--"}, selfMain("replay", file)...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "the transcript expects request tools/call with other params") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
}

// TestReplayer drives a replayer directly: id mapping and server
// messages sent before any request.
func TestReplayer(t *testing.T) {
	transcript := `comment
-- server --
{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}
-- client --
{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"x":1}}}
-- server --
{"jsonrpc":"2.0","id":7,"result":{}}
`
	steps, err := parseTranscript([]byte(transcript))
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	r := &replayer{steps: steps, ids: map[mcp.JSONRPCID]mcp.JSONRPCID{}, out: func(m mcp.JSONRPCMessage) error {
		b, _ := mcp.EncodeMessage(m)
		sent = append(sent, string(b))
		return nil
	}}
	if err := r.flush(); err != nil {
		t.Fatal(err)
	}
	live, _ := mcp.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":"abc","method":"ping"}`))
	if err := r.receive(live); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || !strings.Contains(sent[0], "notifications/message") || sent[1] != `{"jsonrpc":"2.0","id":"abc","result":{}}` {
		t.Fatalf("sent %q", sent)
	}
	if _, err := parseTranscript([]byte("-- other --\n{}\n")); err == nil {
		t.Fatal("a section that is neither client nor server was accepted")
	}
}

func FuzzParseTranscript(f *testing.F) {
	f.Add([]byte("-- client --\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n-- server --\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		steps, err := parseTranscript(data)
		if err != nil {
			return
		}
		r := &replayer{steps: steps, ids: map[mcp.JSONRPCID]mcp.JSONRPCID{}, out: func(mcp.JSONRPCMessage) error { return nil }}
		_ = r.flush()
		for _, s := range steps {
			if s.fromClient {
				_ = r.receive(s.msg)
			}
		}
	})
}
