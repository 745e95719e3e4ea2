package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestInteropStdioEOFEndsListen checks what a stdio server does when the
// client closes its input while a 2026-07-28 subscriptions/listen stream
// is open, as clients do on shutdown (mcp-go's client, for one, closes
// without cancelling the stream first). Clients wait only a short time for
// the server to exit before they signal it (lifecycle: "the client SHOULD
// ... wait for the server to exit, or send SIGTERM if the server does not
// exit within a reasonable time"), and a server that tears a subscription
// down "SHOULD send a successful subscriptions/listen response"
// (basic/patterns/subscriptions, Graceful Closure). mcp-go's server does
// both at once and is the control here.
func TestInteropStdioEOFEndsListen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process; skipped in -short mode")
	}
	for _, sdk := range []string{"ours", "mcpgo"} {
		t.Run(sdk, func(t *testing.T) {
			exe, env, err := interopChildCommand(sdk + "|stdio-eof-listen")
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe)
			cmd.Env = env
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{` +
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
				`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}},"notifications":{"toolsListChanged":true}}}` + "\n")
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("server exited with %v", err)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatal("server still running 10s after its input closed")
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("server exited %v after its input closed, want under 2s", d.Round(time.Millisecond))
			}
			if !listenEndedGracefully(out.Bytes()) {
				t.Errorf("no successful response to subscriptions/listen in the output:\n%s", out.Bytes())
			}
		})
	}
}

// listenEndedGracefully reports whether a stdio output holds a successful
// response to request 1.
func listenEndedGracefully(out []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && string(msg.ID) == "1" && msg.Result != nil {
			return true
		}
	}
	return false
}
