package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// A LoggingHandler is a [slog.Handler] that sends log records to the client
// of a [ServerSession] as log messages (notifications/message), for servers
// that log with log/slog:
//
//	logger := slog.New(mcp.NewLoggingHandler(ss, nil))
//	logger.Info("fetching", "url", u)
//
// A record becomes a message whose data is the JSON object a
// [slog.JSONHandler] writes for it, without the time and level: the key
// "msg" holds the message and the attributes follow. Its level is the MCP
// level of the record's level (see [LevelNotice] and the other Level
// constants). The client's wishes apply as for [ServerSession.LoggingMessage]: records
// below the client's level are dropped, and Enabled reports it, so
// disabled records cost nothing.
//
// In 2026-07-28 make the handler from the session a handler receives: log
// messages belong to that request.
type LoggingHandler struct {
	ss      *ServerSession
	name    string
	shared  *loggingHandlerShared
	handler slog.Handler // formats into shared.buf
}

// loggingHandlerShared is the state a LoggingHandler shares with the
// handlers derived from it by WithAttrs and WithGroup.
type loggingHandlerShared struct {
	minInterval time.Duration

	mu   sync.Mutex
	buf  bytes.Buffer
	last time.Time
}

// LoggingHandlerOptions configure a LoggingHandler. A nil
// *LoggingHandlerOptions means defaults.
type LoggingHandlerOptions struct {
	// LoggerName is the "logger" of the messages (default
	// ServerOptions.LoggerName).
	LoggerName string
	// MinInterval is the minimum time between two messages sent by the
	// handler (and the handlers derived from it); records in between are
	// dropped. Zero means no limit. ServerOptions.LoggingInterval applies
	// as well.
	MinInterval time.Duration
}

// NewLoggingHandler returns a LoggingHandler that logs to the client of ss.
//
// Deprecated: protocol 2026-07-28 deprecates logging to the client
// (SEP-2577). It still works with every protocol version; new servers
// should log to stderr (stdio) or use OpenTelemetry instead.
func NewLoggingHandler(ss *ServerSession, opts *LoggingHandlerOptions) *LoggingHandler {
	h := &LoggingHandler{ss: ss, shared: &loggingHandlerShared{}}
	if opts != nil {
		h.name = opts.LoggerName
		h.shared.minInterval = opts.MinInterval
	}
	h.handler = slog.NewJSONHandler(&h.shared.buf, &slog.HandlerOptions{
		Level: slog.Level(-1 << 20), // our Enabled decides
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	return h
}

// Enabled reports whether the client wants records of level.
func (h *LoggingHandler) Enabled(_ context.Context, level slog.Level) bool {
	return h.ss.logEnabled(level)
}

// Handle sends r to the client, unless the client does not want its level
// or the handler's MinInterval has not passed since its last message.
func (h *LoggingHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.ss.logEnabled(r.Level) {
		return nil
	}
	data, ok, err := h.format(ctx, r)
	if err != nil || !ok {
		return err
	}
	return h.ss.LoggingMessage(ctx, &LoggingMessageParams{
		Level:  loggingLevel(r.Level),
		Logger: h.name,
		Data:   json.RawMessage(data),
	})
}

// format renders r as a JSON object. ok is false when the record is
// dropped by the rate limit.
func (h *LoggingHandler) format(ctx context.Context, r slog.Record) (data []byte, ok bool, err error) {
	sh := h.shared
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.minInterval > 0 {
		now := time.Now()
		if !sh.last.IsZero() && now.Sub(sh.last) < sh.minInterval {
			return nil, false, nil
		}
		sh.last = now
	}
	sh.buf.Reset()
	if err := h.handler.Handle(ctx, r); err != nil {
		return nil, false, err
	}
	return bytes.Clone(bytes.TrimRight(sh.buf.Bytes(), "\n")), true, nil
}

// WithAttrs returns a handler whose records carry attrs as well.
func (h *LoggingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.handler = h.handler.WithAttrs(attrs)
	return &c
}

// WithGroup returns a handler that puts the attributes of its records in
// the group name.
func (h *LoggingHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.handler = h.handler.WithGroup(name)
	return &c
}
