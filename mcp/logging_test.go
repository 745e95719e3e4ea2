package mcp

import (
	"context"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLevelMapping(t *testing.T) {
	tests := []struct {
		slog slog.Level
		mcp  LoggingLevel
	}{
		{slog.LevelDebug - 4, LoggingLevelDebug},
		{LevelDebug, LoggingLevelDebug},
		{slog.LevelInfo - 1, LoggingLevelDebug},
		{LevelInfo, LoggingLevelInfo},
		{LevelInfo + 1, LoggingLevelInfo},
		{LevelNotice, LoggingLevelNotice},
		{LevelWarning - 1, LoggingLevelNotice},
		{LevelWarning, LoggingLevelWarning},
		{LevelError, LoggingLevelError},
		{LevelCritical, LoggingLevelCritical},
		{LevelAlert, LoggingLevelAlert},
		{LevelEmergency, LoggingLevelEmergency},
		{LevelEmergency + 100, LoggingLevelEmergency},
	}
	for _, tt := range tests {
		if got := loggingLevel(tt.slog); got != tt.mcp {
			t.Errorf("loggingLevel(%v) = %q, want %q", tt.slog, got, tt.mcp)
		}
	}
	// The seed fixes notice at 2, between info (0) and warning (4).
	if LevelNotice != 2 || LevelWarning != 4 || LevelInfo != 0 {
		t.Errorf("LevelInfo, LevelNotice, LevelWarning = %d, %d, %d; want 0, 2, 4", LevelInfo, LevelNotice, LevelWarning)
	}
	var prev slog.Level = -1 << 20
	for _, x := range loggingLevels {
		l, ok := slogLevel(x.name)
		if !ok || l != x.level || loggingLevel(l) != x.name {
			t.Errorf("level %q does not round-trip: %v, %t", x.name, l, ok)
		}
		if l <= prev {
			t.Errorf("level %q (%d) is not above the previous level (%d)", x.name, l, prev)
		}
		prev = l
	}
	for _, bad := range []LoggingLevel{"", "verbose", "INFO", "warn"} {
		if _, ok := slogLevel(bad); ok {
			t.Errorf("slogLevel(%q) accepted", bad)
		}
	}
}

// logSink collects the log messages a client receives.
type logSink struct {
	mu   sync.Mutex
	msgs []*LoggingMessageParams
}

func (s *logSink) handle(_ context.Context, _ *ClientSession, p *LoggingMessageParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, p)
}

// take returns and clears the messages received so far.
func (s *logSink) take() []*LoggingMessageParams {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs := s.msgs
	s.msgs = nil
	return msgs
}

// texts returns the data of msgs, which the tests make strings, with their
// levels: "info:hello".
func texts(msgs []*LoggingMessageParams) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Level)+":"+jsonString(m.Data))
	}
	return out
}

// loggingPrompt logs one message per level in its "levels" argument
// (comma-separated) and returns.
func loggingPrompt() *ServerPrompt {
	return NewPrompt("log", "", func(ctx context.Context, ss *ServerSession, in map[string]string) (*GetPromptResult, error) {
		for _, l := range strings.Split(in["levels"], ",") {
			if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevel(l), Data: l}); err != nil {
				return nil, err
			}
		}
		return &GetPromptResult{}, nil
	}, Argument("levels"))
}

func TestLoggingInBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", &ServerOptions{LoggerName: "srv"})
		server.AddPrompts(loggingPrompt())
		var sink logSink
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version, LoggingMessageHandler: sink.handle})
		if cs.ServerCapabilities().Logging == nil {
			t.Fatal("server does not declare logging")
		}
		ctx := context.Background()
		if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: LoggingLevelNotice}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "log", Arguments: map[string]string{"levels": "debug,info,notice,emergency"}}); err != nil {
			t.Fatal(err)
		}
		want := []string{`notice:"notice"`, `emergency:"emergency"`}
		var got []string
		waitUntil(t, func() bool { got = append(got, texts(sink.take())...); return len(got) >= len(want) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("messages %v, want %v", got, want)
		}
		_, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "log", Arguments: map[string]string{"levels": "critical"}})
		if err != nil {
			t.Fatal(err)
		}
		var msgs []*LoggingMessageParams
		waitUntil(t, func() bool { msgs = sink.take(); return len(msgs) > 0 })
		if msgs[0].Logger != "srv" {
			t.Errorf("logger %q, want the server's LoggerName", msgs[0].Logger)
		}
	})
}

func TestLoggingLegacy(t *testing.T) {
	server := NewServer("s", "v1", nil)
	var sink logSink
	cs, ss := connect(t, server, &ClientOptions{ProtocolVersion: Version20251125, LoggingMessageHandler: sink.handle})
	ctx := context.Background()
	var got []string
	collect := func(n int) {
		t.Helper()
		waitUntil(t, func() bool { got = append(got, texts(sink.take())...); return len(got) >= n })
	}

	// Until the client sets a level, every message is sent.
	if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevelDebug, Data: "early"}); err != nil {
		t.Fatal(err)
	}
	collect(1)
	if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: LoggingLevelWarning}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*LoggingMessageParams{
		{Level: LoggingLevelInfo, Data: "dropped"},
		{Level: LoggingLevelWarning, Data: "kept", Logger: "mine"},
		{Level: LoggingLevelNotice, Data: "dropped too"},
		{Level: LoggingLevelAlert, Data: "last"},
	} {
		if err := ss.LoggingMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	collect(3)
	want := []string{`debug:"early"`, `warning:"kept"`, `alert:"last"`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %v, want %v", got, want)
	}

	// Bad input.
	err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: "verbose"})
	wantCode(t, err, CodeInvalidParams, `Invalid log level "verbose"`)
	if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: "verbose"}); err == nil || !strings.Contains(err.Error(), "invalid level") {
		t.Errorf("Log with an invalid level: %v", err)
	}
	if err := ss.LoggingMessage(ctx, nil); err == nil {
		t.Error("Log(nil) succeeded")
	}
}

func TestLoggingModern(t *testing.T) {
	server := NewServer("s", "v1", nil)
	server.AddPrompts(loggingPrompt())
	var sink logSink
	cs, ss := connect(t, server, &ClientOptions{LoggingMessageHandler: sink.handle})
	if cs.ProtocolVersion() != Version20260728 {
		t.Fatalf("protocol %s", cs.ProtocolVersion())
	}
	ctx := context.Background()
	all := map[string]string{"levels": "debug,info,warning,error"}
	// Notifications of a request arrive before its response and are
	// handled in order, so each step sees exactly its own messages.
	steps := []struct {
		name   string
		setup  func() error
		params *GetPromptParams
		want   []string
	}{
		{"no log level: no messages", nil, &GetPromptParams{Name: "log", Arguments: all}, nil},
		{"session level", func() error { return cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: LoggingLevelInfo}) },
			&GetPromptParams{Name: "log", Arguments: all}, []string{`info:"info"`, `warning:"warning"`, `error:"error"`}},
		{"request level wins", nil, &GetPromptParams{Name: "log", Arguments: all, Meta: Meta{LogLevel: LoggingLevelError}}, []string{`error:"error"`}},
		{"level cleared", func() error { return cs.SetLoggingLevel(ctx, nil) }, &GetPromptParams{Name: "log", Arguments: all}, nil},
	}
	for _, st := range steps {
		if st.setup != nil {
			if err := st.setup(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		if _, err := cs.GetPrompt(ctx, st.params); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := texts(sink.take()); !reflect.DeepEqual(got, st.want) {
			t.Errorf("%s: messages %v, want %v", st.name, got, st.want)
		}
	}

	// An unknown level in _meta is refused (spec: -32602).
	_, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "log", Arguments: all, Meta: Meta{LogLevel: "verbose"}})
	wantCode(t, err, CodeInvalidParams, `Invalid log level "verbose"`)
	if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: "verbose"}); err == nil {
		t.Error("SetLoggingLevel accepted an invalid level")
	}

	// The connection's own session belongs to no request: nothing is sent.
	if err := ss.LoggingMessage(ctx, &LoggingMessageParams{Level: LoggingLevelEmergency, Data: "nowhere"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := sink.take(); len(got) != 0 {
		t.Errorf("Log outside a request sent %v", texts(got))
	}
}

func TestLoggingInterval(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", &ServerOptions{LoggingInterval: time.Hour})
		server.AddPrompts(loggingPrompt())
		var sink logSink
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version, LoggingMessageHandler: sink.handle})
		ctx := context.Background()
		if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: LoggingLevelDebug}); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "log", Arguments: map[string]string{"levels": "info,error,alert"}}); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		waitUntil(t, func() bool { got = append(got, texts(sink.take())...); return len(got) >= 1 })
		// Anything more would have come before the second response.
		if err := cs.Ping(ctx, nil); err != nil {
			t.Fatal(err)
		}
		got = append(got, texts(sink.take())...)
		if want := []string{`info:"info"`}; !reflect.DeepEqual(got, want) {
			t.Fatalf("messages %v, want %v (one per LoggingInterval)", got, want)
		}
	})
}

func TestSetLoggingLevelNeedsCapability(t *testing.T) {
	// The server always declares logging; a client talking to a server that
	// does not must refuse.
	cs := &ClientSession{serverCaps: &ServerCapabilities{}}
	if err := cs.SetLoggingLevel(context.Background(), &SetLoggingLevelParams{Level: LoggingLevelInfo}); err == nil {
		t.Fatal("SetLoggingLevel without the server's logging capability succeeded")
	}
}
