package storetest_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gomcp/sdk/mcp/storetest"
)

// testBackendEnv makes the test binary serve as an instance (see TestMain).
const testBackendEnv = "STORETEST_PROXY_BACKEND"

// cannedResponse is what the test instance answers to every request.
var cannedResponse = `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + strings.Repeat(`{"name":"a_tool","description":"a description"},`, 100) + `{}]}}`

// TestMain runs the test binary as an instance when testBackendEnv is set:
// it reads each request body and answers cannedResponse, on a port it
// prints.
func TestMain(m *testing.M) {
	if os.Getenv(testBackendEnv) == "" {
		os.Exit(m.Run())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { // serves until the test kills the process
		_, _ = io.Copy(io.Discard, r.Body) // a canned answer whatever the body
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, cannedResponse) // a failed write shows in the client under test
	}))
}

// Every response comes through RoundRobin whole, however many POSTs share
// its connections to an instance. The instance is another process,
// as in real use: the timing that cut responses short when the proxy
// streamed request bodies shows up then.
func TestProxyDeliversEveryResponseWhole(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), testBackendEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }() // the process may have exited already
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse("http://" + strings.TrimSpace(addr))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(storetest.RoundRobin([]*url.URL{u, u}))
	defer proxy.Close()
	request := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	var wg sync.WaitGroup
	var failures atomic.Int64
	for range 4 {
		wg.Go(func() {
			for range 2500 {
				resp, err := proxy.Client().Post(proxy.URL+"/mcp", "application/json", strings.NewReader(request))
				if err != nil {
					failures.Add(1)
					continue
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || string(got) != cannedResponse {
					failures.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of 10000 responses were cut short or lost", n)
	}
}
