// Command middleware is an MCP server with two receiving middleware around
// every request it handles: one logs each method with its id, duration and
// outcome (to stderr, never stdout, which carries the protocol), the other
// limits the rate of tool calls. A sending middleware logs what the server
// sends the client.
//
//	go run ./examples/middleware            # stdio
//	go run ./examples/middleware -http localhost:8080
package main

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/gomcp/sdk/examples/internal/serve"
	"github.com/gomcp/sdk/mcp"
)

func main() {
	serve.Main(func() *mcp.Server {
		return newServer(slog.New(slog.NewTextHandler(os.Stderr, nil)), newLimiter(5, time.Second))
	})
}

func newServer(logger *slog.Logger, limiter *limiter) *mcp.Server {
	server := mcp.NewServer("echo", "v1.0.0", nil)
	server.AddTools(mcp.NewTool("echo", "Echoes its text", func(ctx context.Context, ss *mcp.ServerSession, in struct {
		Text string `json:"text"`
	}) ([]*mcp.Content, error) {
		return []*mcp.Content{mcp.NewTextContent(in.Text)}, nil
	}))
	// docs:region add
	// The first middleware added runs first: every request is logged,
	// including the ones the limiter refuses.
	server.AddMiddleware(logRequests(logger), limiter.middleware)
	// Sending middleware wraps what the server sends: notifications and
	// requests to the client.
	server.AddSendingMiddleware(logSent(logger))
	// docs:endregion
	return server
}

// docs:region logging
// logRequests logs every request and notification the server handles.
func logRequests(logger *slog.Logger) mcp.Middleware[mcp.ServerSession] {
	return func(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
		return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
			start := time.Now()
			result, err := next(ctx, ss, method, params)
			attrs := []any{"method", method, "duration", time.Since(start)}
			if p, ok := params.(*mcp.CallToolParams); ok {
				attrs = append(attrs, "tool", p.Name)
			}
			// The JSON-RPC id; nil for a notification.
			if info, ok := mcp.RequestInfoFromContext(ctx); ok && info.ID != nil {
				attrs = append(attrs, "id", info.ID)
			}
			if err != nil {
				// CodeOf gives the code the client receives.
				attrs = append(attrs, "code", int64(mcp.CodeOf(err)), "err", err)
				logger.WarnContext(ctx, "request failed", attrs...)
			} else {
				logger.InfoContext(ctx, "request", attrs...)
			}
			return result, err
		}
	}
}

// logSent logs every request and notification the server sends.
func logSent(logger *slog.Logger) mcp.Middleware[mcp.ServerSession] {
	return func(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
		return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
			result, err := next(ctx, ss, method, params)
			logger.InfoContext(ctx, "sent", "method", method, "err", err)
			return result, err
		}
	}
}

// docs:endregion

// docs:region limiter
// A limiter is a token bucket: tool calls take a token, tokens come back
// at a steady rate, and a call finding none is refused.
type limiter struct {
	mu     sync.Mutex
	tokens float64
	max    float64
	rate   float64 // tokens per second
	last   time.Time
}

// codeRateLimited is the JSON-RPC error code of a refused call.
const codeRateLimited = -32000

func newLimiter(burst int, every time.Duration) *limiter {
	return &limiter{tokens: float64(burst), max: float64(burst), rate: float64(time.Second) / float64(every), last: time.Now()}
}

func (l *limiter) allow() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	l.tokens = min(l.max, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}

func (l *limiter) middleware(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
	return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
		if method == "tools/call" && !l.allow() {
			// A *JSONRPCError chooses the error code the client sees;
			// -32000 to -32099 are free for servers' own errors.
			return nil, &mcp.JSONRPCError{Code: codeRateLimited, Message: "rate limit exceeded; retry later"}
		}
		return next(ctx, ss, method, params)
	}
}

// docs:endregion
