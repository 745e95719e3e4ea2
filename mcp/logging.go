package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// The MCP logging levels as [slog.Level] values, for [LoggingHandler] and
// for code that logs through log/slog. slog's Debug, Info, Warn and Error
// are MCP's debug, info, warning and error; the other MCP levels lie
// between or above them, so that "notice" (2) is between info (0) and
// warning (4). To log at the notice level: logger.Log(ctx, mcp.LevelNotice,
// "message").
const (
	// LevelDebug (-4) is MCP's "debug": slog.LevelDebug.
	LevelDebug = slog.LevelDebug
	// LevelInfo (0) is MCP's "info": slog.LevelInfo.
	LevelInfo = slog.LevelInfo
	// LevelNotice (2) is MCP's "notice", between info and warning.
	LevelNotice = (slog.LevelInfo + slog.LevelWarn) / 2
	// LevelWarning (4) is MCP's "warning": slog.LevelWarn.
	LevelWarning = slog.LevelWarn
	// LevelError (8) is MCP's "error": slog.LevelError.
	LevelError = slog.LevelError
	// LevelCritical (12) is MCP's "critical".
	LevelCritical = slog.LevelError + 4
	// LevelAlert (16) is MCP's "alert".
	LevelAlert = slog.LevelError + 8
	// LevelEmergency (20) is MCP's "emergency", the most severe.
	LevelEmergency = slog.LevelError + 12
)

// loggingLevels pairs each MCP level with its slog value, least severe
// first.
var loggingLevels = [...]struct {
	name  LoggingLevel
	level slog.Level
}{
	{LoggingLevelDebug, LevelDebug},
	{LoggingLevelInfo, LevelInfo},
	{LoggingLevelNotice, LevelNotice},
	{LoggingLevelWarning, LevelWarning},
	{LoggingLevelError, LevelError},
	{LoggingLevelCritical, LevelCritical},
	{LoggingLevelAlert, LevelAlert},
	{LoggingLevelEmergency, LevelEmergency},
}

// slogLevel returns the slog value of an MCP level, and false for a string
// that is not one.
func slogLevel(l LoggingLevel) (slog.Level, bool) {
	for _, x := range loggingLevels {
		if x.name == l {
			return x.level, true
		}
	}
	return 0, false
}

// loggingLevel maps any slog level to the most severe MCP level at or
// below it; levels below LevelDebug are debug.
func loggingLevel(l slog.Level) LoggingLevel {
	name := LoggingLevelDebug
	for _, x := range loggingLevels {
		if l >= x.level {
			name = x.name
		}
	}
	return name
}

// invalidLogLevel is the invalid-params error for a level that is not one
// of the eight MCP levels.
func invalidLogLevel(l LoggingLevel) error {
	return newError(CodeInvalidParams, "Invalid log level %q: want debug, info, notice, warning, error, critical, alert or emergency", l)
}

// checkMetaLogLevel checks the _meta log level of a 2026-07-28 request:
// absent, or one of the MCP levels.
func checkMetaLogLevel(l LoggingLevel) error {
	if _, ok := slogLevel(l); l != "" && !ok {
		return invalidLogLevel(l)
	}
	return nil
}

// loggingState is a connection's logging configuration and rate limit.
type loggingState struct {
	mu    sync.Mutex
	level LoggingLevel // set by logging/setLevel (legacy); "" until then
	last  time.Time    // when the last message was sent
}

// allow reports whether a message may be sent now, at most one per
// interval, and if so records it as sent.
func (ls *loggingState) allow(interval time.Duration) bool {
	if interval <= 0 {
		return true
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	now := time.Now()
	if !ls.last.IsZero() && now.Sub(ls.last) < interval {
		return false
	}
	ls.last = now
	return true
}

// loggingCapabilities declares the logging capability: every server can
// send log messages.
func loggingCapabilities(s *Server, caps *ServerCapabilities) {
	if caps.Logging == nil {
		caps.Logging = &LoggingCapability{}
	}
}

func (ss *ServerSession) setLoggingLevel(ctx context.Context, p *SetLoggingLevelParams) (*EmptyResult, error) {
	if _, ok := slogLevel(p.Level); !ok {
		return nil, invalidLogLevel(p.Level)
	}
	root := ss.root()
	root.logging.mu.Lock()
	root.logging.level = p.Level
	root.logging.mu.Unlock()
	return &EmptyResult{}, nil
}

// logEnabled reports whether the client wants messages at level now.
//
// In 2026-07-28 the request's _meta log level decides, and a request
// without one gets no messages (spec: server/utilities/logging). In the
// legacy era the level set by logging/setLevel decides; until the client
// sets one, messages of every level are sent: setLevel is optional (the
// client "MAY" send it) and the 2025-11-25 spec does not make a server
// wait for it.
func (ss *ServerSession) logEnabled(level slog.Level) bool {
	if ss.request != nil {
		min, ok := slogLevel(ss.request.meta.LogLevel)
		return ok && level >= min
	}
	st := ss.state()
	if st.era.Load() != eraLegacy || !st.initialized.Load() {
		// A modern connection's own session: log messages belong to a
		// request, and there is none.
		return false
	}
	st.logging.mu.Lock()
	want := st.logging.level
	st.logging.mu.Unlock()
	min, ok := slogLevel(want)
	return !ok || level >= min
}

// LoggingMessage sends a log message to the client (notifications/message), if the
// client wants messages of its level: see [LoggingHandler] for a log/slog
// front end. A message below the client's level is dropped, as is one sent
// sooner than ServerOptions.LoggingInterval after the previous one; neither
// is an error. An empty params.Logger is filled with
// ServerOptions.LoggerName.
//
// In 2026-07-28 log messages belong to a request: call LoggingMessage on the session
// a handler receives, and the message goes on that request's response
// stream, only if the request asked for a log level.
//
// Deprecated: protocol 2026-07-28 deprecates logging to the client
// (SEP-2577). It still works with every protocol version; new servers
// should log to stderr (stdio) or use OpenTelemetry instead.
func (ss *ServerSession) LoggingMessage(ctx context.Context, params *LoggingMessageParams) error {
	if params == nil {
		return errors.New("mcp: Log: nil params")
	}
	level, ok := slogLevel(params.Level)
	if !ok {
		return fmt.Errorf("mcp: Log: invalid level %q", params.Level)
	}
	if !ss.logEnabled(level) {
		return nil
	}
	if !ss.logLimiter().allow(ss.server.opts.LoggingInterval) {
		return nil
	}
	if params.Logger == "" && ss.server.opts.LoggerName != "" {
		p := *params
		p.Logger = ss.server.opts.LoggerName
		params = &p
	}
	return ss.notify(ctx, NotificationLoggingMessage, params)
}

// SetLoggingLevel sets the minimum level of the log messages the server
// sends this client. Up to 2025-11-25 it is the spec method
// logging/setLevel. In 2026-07-28, where the level is part of each
// request, it makes every later request of the session carry the level in
// its _meta (a request whose params set Meta.LogLevel keeps its own); an
// empty level then stops log messages.
//
// Deprecated: protocol 2026-07-28 deprecates logging to the client
// (SEP-2577). It still works with every protocol version; new servers
// should log to stderr (stdio) or use OpenTelemetry instead.
func (cs *ClientSession) SetLoggingLevel(ctx context.Context, params *SetLoggingLevelParams) error {
	if err := requireServer(cs.serverCaps.Logging != nil, "logging"); err != nil {
		return err
	}
	if !cs.modern {
		_, err := clientCall[SetLoggingLevelParams, EmptyResult](ctx, cs, MethodSetLoggingLevel, params)
		return err
	}
	var level LoggingLevel
	if params != nil {
		level = params.Level
	}
	if _, ok := slogLevel(level); level != "" && !ok {
		return fmt.Errorf("mcp: SetLoggingLevel: invalid level %q", level)
	}
	cs.mu.Lock()
	cs.logLevel = level
	cs.mu.Unlock()
	return nil
}
