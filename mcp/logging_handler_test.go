package mcp

import (
	"context"
	"log/slog"
	"reflect"
	"testing"
	"time"
)

// messagesOf returns level, logger and JSON data (keys sorted) of each
// message.
func messagesOf(msgs []*LoggingMessageParams) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.Level)+" "+m.Logger+" "+jsonString(m.Data))
	}
	return out
}

func TestLoggingHandler(t *testing.T) {
	server := NewServer("s", "v1", &ServerOptions{LoggerName: "default"})
	var sink logSink
	cs, ss := connect(t, server, &ClientOptions{ProtocolVersion: Version20251125, LoggingMessageHandler: sink.handle})
	ctx := context.Background()
	logger := slog.New(NewLoggingHandler(ss, &LoggingHandlerOptions{LoggerName: "database"}))

	logger.Log(ctx, LevelNotice, "connected", "host", "localhost", "port", 5432)
	logger.With("request", 7).WithGroup("details").Error("Connection failed", "retry", true)
	logger.Log(ctx, LevelCritical+1, "disk full")
	slog.New(NewLoggingHandler(ss, nil)).Debug("unnamed")

	want := []string{
		`notice database {"host":"localhost","msg":"connected","port":5432}`,
		`error database {"details":{"retry":true},"msg":"Connection failed","request":7}`,
		`critical database {"msg":"disk full"}`,
		`debug default {"msg":"unnamed"}`,
	}
	var got []string
	waitUntil(t, func() bool { got = append(got, messagesOf(sink.take())...); return len(got) >= len(want) })
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages:\n%q\nwant:\n%q", got, want)
	}

	// The client's level decides what is enabled.
	if err := cs.SetLoggingLevel(ctx, &SetLoggingLevelParams{Level: LoggingLevelWarning}); err != nil {
		t.Fatal(err)
	}
	if logger.Enabled(ctx, LevelNotice) || !logger.Enabled(ctx, LevelWarning) {
		t.Fatalf("Enabled(notice), Enabled(warning) = %t, %t; want false, true", logger.Enabled(ctx, LevelNotice), logger.Enabled(ctx, LevelWarning))
	}
	logger.Info("dropped")
	logger.Warn("kept")
	waitUntil(t, func() bool { got = messagesOf(sink.take()); return len(got) > 0 })
	if want := []string{`warning database {"msg":"kept"}`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
}

func TestLoggingHandlerMinInterval(t *testing.T) {
	server := NewServer("s", "v1", nil)
	var sink logSink
	cs, ss := connect(t, server, &ClientOptions{ProtocolVersion: Version20251125, LoggingMessageHandler: sink.handle})
	h := NewLoggingHandler(ss, &LoggingHandlerOptions{MinInterval: time.Hour})
	logger := slog.New(h)
	logger.Info("first")
	logger.With("k", "v").Info("second: derived handlers share the limit")
	logger.Error("third")
	other := slog.New(NewLoggingHandler(ss, nil)) // its own limit: none
	other.Info("other")
	var got []string
	waitUntil(t, func() bool { got = append(got, messagesOf(sink.take())...); return len(got) >= 2 })
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	got = append(got, messagesOf(sink.take())...)
	if want := []string{`info  {"msg":"first"}`, `info  {"msg":"other"}`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
}

func TestLoggingHandlerModern(t *testing.T) {
	server := NewServer("s", "v1", nil)
	var enabled []bool
	server.AddPrompts(NewPrompt("work", "", func(ctx context.Context, ss *ServerSession, _ map[string]string) (*GetPromptResult, error) {
		logger := slog.New(NewLoggingHandler(ss, nil))
		enabled = append(enabled, logger.Enabled(ctx, LevelInfo))
		logger.Info("working", "step", 1)
		return &GetPromptResult{}, nil
	}))
	var sink logSink
	cs, _ := connect(t, server, &ClientOptions{LoggingMessageHandler: sink.handle})
	ctx := context.Background()
	if _, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "work"}); err != nil {
		t.Fatal(err)
	}
	if got := sink.take(); len(got) != 0 {
		t.Fatalf("request without a log level got %q", messagesOf(got))
	}
	if _, err := cs.GetPrompt(ctx, &GetPromptParams{Name: "work", Meta: Meta{LogLevel: LoggingLevelDebug}}); err != nil {
		t.Fatal(err)
	}
	if got, want := messagesOf(sink.take()), []string{`info  {"msg":"working","step":1}`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	if want := []bool{false, true}; !reflect.DeepEqual(enabled, want) {
		t.Fatalf("Enabled(info) per request = %v, want %v", enabled, want)
	}
}
