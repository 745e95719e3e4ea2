package mcp

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/jsonrpc2"
	"github.com/gomcp/sdk/strictjson"
)

// The direct decoding of tools/call results (result_decode.go) must give
// exactly what the general decoder gives, or give up.

var callToolResultJSONCases = []string{
	`{"content":[{"type":"text","text":"hello"}]}`,
	`{"resultType":"complete","content":[{"type":"text","text":"a"},{"text":"b\u00e9\n","type":"text"}],"isError":true}`,
	`{"content":[],"isError":false,"extra":{"x":[1,2]}}`,
	`{"content":[{"type":"text","text":"1"},{"type":"text","text":"2"},{"type":"text","text":"3"},{"type":"text","text":"4"},{"type":"text","text":"5"}]}`,
	`{}`,
	`{"content":null}`,
	`{"content":[{"type":"text"}]}`,
	`{"content":[{"type":"text","text":5}]}`,
	`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
	`{"content":[{"type":"text","text":"a","annotations":{"priority":1}}]}`,
	`{"content":[{"type":"text","text":"a","_meta":{"k":1}}]}`,
	`{"content":[{"type":"te\u0078t","text":"a"}]}`,
	`{"content":[{"Type":"text","text":"a"}]}`,
	`{"content":[],"structuredContent":{"a":1}}`,
	`{"content":[{"type":"text","text":"x"}],"structuredContent":{ "a" : [1, {"b":"\u00e9"}] },"isError":true}`,
	`{"structuredContent":{},"content":[]}`,
	`{"content":[],"structuredContent":[1]}`,
	`{"content":[],"structuredContent":null}`,
	`{"content":[],"structuredContent":"x"}`,
	`{"content":[],"_meta":{"k":1}}`,
	`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"resultType":"complete","content":[{"type":"text","text":"hi"}]}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":{"progressToken":[1]}}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":null}`,
	`{"content":[{"type":"text","text":"x"}],"_meta":5}`,
	`{"content":[],"isError":null}`,
	`{"content":[],"resultType":5}`,
	`{"content":{}}`,
	`[1]`,
}

// checkCallToolResultDecoding decodes result both ways, if a response
// carrying it decodes, and fails t if the direct path disagrees with the
// general decoder. It reports whether the direct path took it.
func checkCallToolResultDecoding(t *testing.T, result []byte) bool {
	t.Helper()
	msg, err := jsonrpc2.Decode(append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":`), result...), '}'))
	if err != nil {
		return false
	}
	raw := msg.(*jsonrpc2.Response).Result
	var fast CallToolResult
	if !fast.decodeDirect(raw) {
		if !reflect.DeepEqual(fast, CallToolResult{}) {
			t.Fatalf("direct path gave up on %s but left %+v", result, fast)
		}
		return false
	}
	var slow CallToolResult
	if err := slow.decodeGeneral(raw); err != nil {
		t.Fatalf("direct path accepts %s, the general decoder refuses it: %v", result, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoding %s:\ndirect  %#v\ngeneral %#v", result, fast, slow)
	}
	return true
}

// checkDecodeResultAgrees decodes result, as any bytes a response may
// carry, with decodeResult and with the strict decoder alone, and fails t
// if they disagree on whether it decodes or on what it gives. It reports
// whether the validating direct path took it.
func checkDecodeResultAgrees(t *testing.T, result []byte) bool {
	t.Helper()
	var fast, slow CallToolResult
	fastErr := decodeResult(result, &fast)
	slowErr := strictjson.Unmarshal(result, &slow)
	if (fastErr == nil) != (slowErr == nil) {
		t.Fatalf("decoding %q: decodeResult says %v, the strict decoder %v", result, fastErr, slowErr)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoding %q:\ndecodeResult   %#v\nstrict decoder %#v", result, fast, slow)
	}
	var direct CallToolResult
	return direct.decodeValidating(result)
}

func TestCallToolResultDirectDecodingAgrees(t *testing.T) {
	taken, validating := 0, 0
	for _, in := range callToolResultJSONCases {
		if checkCallToolResultDecoding(t, []byte(in)) {
			taken++
		}
		if checkDecodeResultAgrees(t, []byte(in)) {
			validating++
		}
	}
	if taken < 5 || validating < 5 {
		t.Errorf("direct paths took %d and %d (validating) cases; they must take plain text results", taken, validating)
	}
}

// TestDecodeResultValidates gives decodeResult results that are not valid
// under the strict rules, which the validating direct path must leave to
// the strict decoder's error.
func TestDecodeResultValidates(t *testing.T) {
	for _, in := range []string{
		`{"content":[{"type":"text","text":"a"}],"content":[]}`,
		`{"content":[{"type":"text","text":"a","text":"b"}]}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"k":1,"k":2}}`,
		"{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",
		"{\"content\":[{\"type\":\"text\",\"text\":\"a\x01\"}]}",
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"n":01}}`,
		`{"content":[{"type":"text","text":"a"}]} x`,
		`{"content":[],"x":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	} {
		var res CallToolResult
		if err := decodeResult([]byte(in), &res); err == nil {
			t.Errorf("decodeResult(%q) accepted it: %+v", in, res)
		}
		checkDecodeResultAgrees(t, []byte(in))
	}
}

func FuzzCallToolResultDecoding(f *testing.F) {
	for _, in := range callToolResultJSONCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, result []byte) {
		checkCallToolResultDecoding(t, result)
		checkDecodeResultAgrees(t, result)
	})
}

type sumInput struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sumOutput struct {
	Sum int `json:"sum"`
}

// DecodeStructured reads a structured result into the tool's output type,
// and says clearly when there is none to read, in every era.
func TestDecodeStructured(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		server := NewServer("s", "v1", nil)
		server.AddTools(
			NewStructuredTool("sum", "adds", func(_ context.Context, _ *ServerSession, in sumInput) (sumOutput, error) {
				if in.A < 0 {
					return sumOutput{}, errors.New("negative numbers are not supported")
				}
				return sumOutput{Sum: in.A + in.B}, nil
			}),
			NewTool("plain", "text only", func(context.Context, *ServerSession, struct{}) ([]*Content, error) {
				return []*Content{NewTextContent("hi")}, nil
			}),
		)
		cs, _ := connect(t, server, &ClientOptions{ProtocolVersion: version})
		call := func(name string, args any) *CallToolResult {
			t.Helper()
			res, err := cs.CallTool(context.Background(), name, args, nil)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}

		got, err := DecodeStructured[sumOutput](call("sum", sumInput{A: 2, B: 3}))
		if err != nil || got.Sum != 5 {
			t.Errorf("sum: %+v, %v; want 5", got, err)
		}
		if m, err := DecodeStructured[map[string]int](call("sum", sumInput{A: 1, B: 1})); err != nil || m["sum"] != 2 {
			t.Errorf("sum into a map: %v, %v", m, err)
		}

		for _, tt := range []struct {
			name    string
			res     *CallToolResult
			wantErr string
		}{
			{"failed tool", call("sum", sumInput{A: -1}), "the tool failed: negative numbers are not supported"},
			{"tool without structured output", call("plain", struct{}{}), ""},
			{"nil result", nil, "nil result"},
		} {
			_, err := DecodeStructured[sumOutput](tt.res)
			if !errors.Is(err, ErrNoStructuredContent) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want ErrNoStructuredContent saying %q", tt.name, err, tt.wantErr)
			}
		}

		// Content of another shape is a decoding error, not a zero value.
		if _, err := DecodeStructured[struct {
			Sum string `json:"sum"`
		}](call("sum", sumInput{A: 2, B: 3})); err == nil || errors.Is(err, ErrNoStructuredContent) {
			t.Errorf("decoding a number into a string field: %v, want a decoding error", err)
		}
	})
}

// Structured content set by Go code rather than decoded is read too.
func TestDecodeStructuredGoValue(t *testing.T) {
	for _, sc := range []any{sumOutput{Sum: 7}, map[string]any{"sum": 7}} {
		got, err := DecodeStructured[sumOutput](&CallToolResult{StructuredContent: sc})
		if err != nil || got.Sum != 7 {
			t.Errorf("%T: %+v, %v", sc, got, err)
		}
	}
}

// NewStructuredTool refuses, at registration, an output type whose values
// are not JSON objects: earlier revisions than 2026-07-28 require
// structuredContent to be one.
func TestStructuredOutputMustBeAnObject(t *testing.T) {
	tests := []struct {
		name   string
		define func()
		ok     bool
	}{
		{"struct", func() { NewStructuredTool("t", "", typedHandler[sumOutput]) }, true},
		{"pointer to struct", func() { NewStructuredTool("t", "", typedHandler[*sumOutput]) }, true},
		{"map", func() { NewStructuredTool("t", "", typedHandler[map[string]int]) }, true},
		{"int", func() { NewStructuredTool("t", "", typedHandler[int]) }, false},
		{"slice", func() { NewStructuredTool("t", "", typedHandler[[]string]) }, false},
		{"any", func() { NewStructuredTool("t", "", typedHandler[any]) }, false},
	}
	for _, tt := range tests {
		var msg string
		func() {
			defer func() {
				if v := recover(); v != nil {
					msg, _ = v.(string)
				}
			}()
			tt.define()
		}()
		switch {
		case tt.ok && msg != "":
			t.Errorf("%s: panicked: %s", tt.name, msg)
		case !tt.ok && !strings.Contains(msg, "must be a struct"):
			t.Errorf("%s: panic %q, want one saying the output must be a struct", tt.name, msg)
		}
	}
}

func typedHandler[Out any](context.Context, *ServerSession, struct{}) (Out, error) {
	var out Out
	return out, nil
}

// BenchmarkDecodeLargeCallToolResult decodes, as a client does, a result
// of about 2.5 KB: a markdown text and structured content that holds it
// again.
func BenchmarkDecodeLargeCallToolResult(b *testing.B) {
	md := strings.Repeat(`Use \"pkg.Do\" to run a task; it returns an error.\n`, 20)
	raw := []byte(`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"content":[{"type":"text","text":"` + md +
		`"}],"structuredContent":{"name":"pkg","markdown":"` + md + `","symbols":["Do","Task"]}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var res CallToolResult
		if err := decodeResult(raw, &res); err != nil {
			b.Fatal(err)
		}
	}
}
