package otel

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/otel/trace"
)

// TestToolCallContent checks the opt-in recording of tool call arguments
// and results: absent by default, present on the CLIENT and SERVER spans
// when asked for, for a failed tool result too, and cut to the size limit.
func TestToolCallContent(t *testing.T) {
	cases := []struct {
		name       string
		record     bool
		max        int
		tool       string
		args       map[string]any
		wantArgs   string // "" for no attribute
		wantResult string // a prefix of the result text; "" for no attribute
	}{
		{name: "off by default", tool: "greet", args: map[string]any{"name": "Ada"}},
		{name: "recorded", record: true, tool: "greet", args: map[string]any{"name": "Ada"},
			wantArgs: `{"name":"Ada"}`, wantResult: `{"content":[{"type":"text","text":"Hi Ada"}]`},
		{name: "tool error", record: true, tool: "fail", args: map[string]any{},
			wantArgs: `{}`, wantResult: `{"content":[{"type":"text","text":"it failed"}]`},
		{name: "cut to the limit", record: true, max: 12, tool: "greet", args: map[string]any{"name": "Adaé"},
			wantArgs: `{"name":"Ada`, wantResult: `{"content":[`},
	}
	for _, era := range eras {
		for _, tc := range cases {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				tm := newTelemetry(t)
				tm.opts.RecordToolCalls, tm.opts.MaxToolCallSize = tc.record, tc.max
				server, client := pair(tm, era.request)
				cs := connect(t, server, client)
				if _, err := cs.CallTool(context.Background(), tc.tool, tc.args, nil); err != nil {
					t.Fatal(err)
				}
				for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
					a := attrs(spanOf(t, tm, "tools/call "+tc.tool, kind).Attributes())
					args, hasArgs := a["gen_ai.tool.call.arguments"]
					result, hasResult := a["gen_ai.tool.call.result"]
					if hasArgs != (tc.wantArgs != "") || args != tc.wantArgs {
						t.Errorf("%v: arguments %q (%v), want %q", kind, args, hasArgs, tc.wantArgs)
					}
					if hasResult != (tc.wantResult != "") || !strings.HasPrefix(result, tc.wantResult) {
						t.Errorf("%v: result %q (%v), want it to start with %q", kind, result, hasResult, tc.wantResult)
					}
					if tc.max > 0 && (len(args) > tc.max || len(result) > tc.max) {
						t.Errorf("%v: arguments %q, result %q, longer than %d bytes", kind, args, result, tc.max)
					}
				}
			})
		}
	}
}

func TestTruncateUTF8(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"aé", 2, "a"}, // é is two bytes: not cut in half
		{"aé", 3, "aé"},
		{"日本", 4, "日"},
		{"日本", 2, ""},
	} {
		if got := truncateUTF8([]byte(tc.in), tc.limit); got != tc.want {
			t.Errorf("truncateUTF8(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
}

// FuzzTruncateUTF8 checks that a cut text is a prefix within the limit, and
// valid UTF-8 when the text was.
func FuzzTruncateUTF8(f *testing.F) {
	f.Add("aé日本", 3)
	f.Add(`{"name":"Ada"}`, 5)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit <= 0 || limit > 1<<16 {
			return
		}
		got := truncateUTF8([]byte(s), limit)
		if len(got) > limit || !strings.HasPrefix(s, got) {
			t.Fatalf("truncateUTF8(%q, %d) = %q", s, limit, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("truncateUTF8(%q, %d) = %q, not valid UTF-8", s, limit, got)
		}
	})
}
