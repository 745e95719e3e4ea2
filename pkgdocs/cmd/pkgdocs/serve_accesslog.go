package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gomcp/sdk/auth"
)

// maxLoggedHeader bounds the client-chosen header values (MCP method and
// tool name, forwarded addresses) an access log record repeats.
const maxLoggedHeader = 128

// newLogger returns the team server's logger, writing to w in format
// ("text" or "json").
func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	default:
		return nil, fmt.Errorf("--log-format %q: want text or json", format)
	}
}

// A requestRecord collects what the access log says of a request that
// only the handlers it passes through learn: who made it, and whether it
// was over the rate limit.
type requestRecord struct {
	subject, clientID string
	limited           bool
}

type recordKey struct{}

// recordOf returns the access log's record of the request whose context
// is ctx, or nil outside the access log.
func recordOf(ctx context.Context) *requestRecord {
	rec, _ := ctx.Value(recordKey{}).(*requestRecord)
	return rec
}

// noteCaller tells the access log who the access token speaks for. It
// runs behind the OAuth middleware.
func noteCaller(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rec, ti := recordOf(r.Context()), auth.TokenInfoFromContext(r.Context()); rec != nil && ti != nil {
			rec.subject, rec.clientID = ti.Subject, ti.ClientID
		}
		next.ServeHTTP(w, r)
	})
}

// accessLog logs one record per request once next has answered it:
// method, path (never the query string, where a misbehaving client may
// put a token), status, bytes, duration, the client's address (and the
// X-Forwarded-For a reverse proxy adds), the MCP method and tool the
// request names in its headers, and the subject and client of its access
// token. No other header is logged, so no token is. A long-lived event stream that takes its connection over is
// logged as it starts, with stream=true.
func accessLog(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &requestRecord{}
		lw := &loggedWriter{ResponseWriter: w}
		next.ServeHTTP(lw, r.WithContext(context.WithValue(r.Context(), recordKey{}, rec)))
		status := lw.status
		if status == 0 {
			status = http.StatusOK
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", status),
			slog.Int64("bytes", lw.bytes),
			slog.Duration("duration", time.Since(start)),
			slog.String("remote", r.RemoteAddr),
		}
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			attrs = append(attrs, slog.String("forwarded_for", truncate(xff, maxLoggedHeader)))
		}
		if m := r.Header.Get("Mcp-Method"); m != "" {
			attrs = append(attrs, slog.String("mcp_method", truncate(m, maxLoggedHeader)))
		}
		if n := r.Header.Get("Mcp-Name"); n != "" {
			attrs = append(attrs, slog.String("mcp_name", truncate(n, maxLoggedHeader)))
		}
		if rec.subject != "" {
			attrs = append(attrs, slog.String("subject", rec.subject))
		}
		if rec.clientID != "" {
			attrs = append(attrs, slog.String("client_id", rec.clientID))
		}
		if rec.limited {
			attrs = append(attrs, slog.Bool("rate_limited", true))
		}
		if lw.hijacked {
			attrs = append(attrs, slog.Bool("stream", true))
		}
		logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// truncate cuts s to at most n bytes, at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// loggedWriter notes the status and size of a response. It unwraps, so
// that http.ResponseController (flushes, write deadlines) reaches the
// server's own writer, and it notes when a handler takes the connection
// over.
type loggedWriter struct {
	http.ResponseWriter
	status   int
	bytes    int64
	hijacked bool
}

func (w *loggedWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggedWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Unwrap returns the writer inside, for http.ResponseController.
func (w *loggedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes the connection over, as http.ResponseController does.
func (w *loggedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.hijacked = true
	}
	return conn, brw, err
}
