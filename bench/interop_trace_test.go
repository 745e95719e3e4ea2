package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
)

// Wire tracing for diagnosing interop failures: with
//
//	GOMCP_INTEROP_TRACE=/tmp/interop.trace go test -run 'TestInterop/NAME' ./bench
//
// every HTTP exchange with a fixture server (request line, the headers
// MCP uses, bodies, each chunk of a streamed response) and every line a
// stdio fixture server reads or writes is appended to that file, each
// line prefixed with the case name. Tracing is off by default.
const interopTraceEnv = "GOMCP_INTEROP_TRACE"

// interopCaseEnv passes the case name to a stdio child for its trace.
const interopCaseEnv = "GOMCP_INTEROP_CASE"

var traceMu sync.Mutex

// ixTrace appends one line to the trace file, if tracing is on.
func ixTrace(prefix, format string, args ...any) {
	path := os.Getenv(interopTraceEnv)
	if path == "" {
		return
	}
	traceMu.Lock()
	defer traceMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", prefix, strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

// traceHandler wraps h to trace its exchanges when tracing is on.
func traceHandler(name string, h http.Handler) http.Handler {
	if os.Getenv(interopTraceEnv) == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		ixTrace(name, "-> %s %s %s %s", r.Method, r.URL.RequestURI(), mcpHeaders(r.Header), body)
		tw := &traceWriter{ResponseWriter: w, name: name}
		h.ServeHTTP(tw, r)
		ixTrace(name, "<- end of %s %s", r.Method, r.URL.RequestURI())
	})
}

// mcpHeaders renders the request or response headers MCP uses.
func mcpHeaders(h http.Header) string {
	var parts []string
	for _, k := range []string{"Accept", "Content-Type", "Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-Id"} {
		if v := h.Values(k); len(v) > 0 {
			parts = append(parts, k+"="+strings.Join(v, ","))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

type traceWriter struct {
	http.ResponseWriter
	name        string
	wroteHeader bool
}

func (t *traceWriter) WriteHeader(code int) {
	if !t.wroteHeader {
		t.wroteHeader = true
		ixTrace(t.name, "<- %d %s", code, mcpHeaders(t.Header()))
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *traceWriter) Write(b []byte) (int, error) {
	if !t.wroteHeader {
		t.WriteHeader(http.StatusOK)
	}
	ixTrace(t.name, "<- %q", b)
	return t.ResponseWriter.Write(b)
}

func (t *traceWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (t *traceWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// traceStdio replaces os.Stdin and os.Stdout of a stdio child with pipes
// that copy every line through and trace it, when tracing is on. The
// returned function flushes the output; call it before exiting.
func traceStdio() (flush func()) {
	if os.Getenv(interopTraceEnv) == "" {
		return func() {}
	}
	name := os.Getenv(interopCaseEnv) + " stdio"
	inR, inW, err1 := os.Pipe()
	outR, outW, err2 := os.Pipe()
	if err1 != nil || err2 != nil {
		return func() {}
	}
	realIn, realOut := os.Stdin, os.Stdout
	go func() {
		sc := bufio.NewScanner(realIn)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			ixTrace(name, "-> %s", sc.Bytes())
			inW.Write(append(sc.Bytes(), '\n'))
		}
		ixTrace(name, "-> EOF")
		inW.Close()
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			ixTrace(name, "<- %s", sc.Bytes())
			realOut.Write(append(sc.Bytes(), '\n'))
		}
	}()
	os.Stdin, os.Stdout = inR, outW
	return func() {
		outW.Close()
		<-done
	}
}

// ixSlog is the logger handed to the SDKs that log through slog: their
// messages go to the trace when tracing is on and nowhere otherwise, so
// that they do not clutter the test output.
func ixSlog(name string) *slog.Logger {
	return slog.New(slog.NewTextHandler(traceLogWriter{name}, nil))
}

// traceLogWriter writes each log line to the trace.
type traceLogWriter struct{ name string }

func (w traceLogWriter) Write(b []byte) (int, error) {
	ixTrace(w.name, "log: %s", b)
	return len(b), nil
}
