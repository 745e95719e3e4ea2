package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// marshalBothLibs encodes v with strictjson and encoding/json, fails if they
// disagree, and returns the encoding.
func marshalBothLibs(t *testing.T, v any) string {
	t.Helper()
	got, err := strictjson.Marshal(v)
	if err != nil {
		t.Fatalf("strictjson.Marshal(%T): %v", v, err)
	}
	if v1 := marshalWithV1(t, v); !bytes.Equal(v1, got) {
		t.Fatalf("encoding/json and strictjson disagree on %T\n  v1: %s\nv2: %s", v, v1, got)
	}
	return string(got)
}

func TestContentConstructors(t *testing.T) {
	size := int64(0)
	link := NewResourceLink("file:///a.txt", "a.txt")
	link.Size = &size
	tests := []struct {
		name    string
		content *Content
		want    string
	}{
		{"text", NewTextContent("hi"), `{"type":"text","text":"hi"}`},
		{"empty text is still written", NewTextContent(""), `{"type":"text","text":""}`},
		{"image data is base64", NewImageContent([]byte{0, 1, 2, 0xff}, "image/png"), `{"type":"image","data":"AAEC/w==","mimeType":"image/png"}`},
		{"audio", NewAudioContent([]byte("RIFF"), "audio/wav"), `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`},
		{"resource link with zero size", link, `{"type":"resource_link","uri":"file:///a.txt","name":"a.txt","size":0}`},
		{"embedded text resource", NewEmbeddedResource(NewTextResourceContents("file:///a", "text/plain", "")), `{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":""}}`},
		{"embedded blob resource", NewEmbeddedResource(NewBlobResourceContents("file:///b", "", nil)), `{"type":"resource","resource":{"uri":"file:///b","blob":""}}`},
		{"tool use", NewToolUseContent("c1", "weather", map[string]any{"city": "Paris"}), `{"type":"tool_use","id":"c1","name":"weather","input":{"city":"Paris"}}`},
		{"tool use without input", NewToolUseContent("c1", "now", nil), `{"type":"tool_use","id":"c1","name":"now","input":{}}`},
		{"tool result", NewToolResultContent("c1", NewTextContent("18C")), `{"type":"tool_result","toolUseId":"c1","content":[{"type":"text","text":"18C"}]}`},
		{"empty tool result", NewToolResultContent("c1"), `{"type":"tool_result","toolUseId":"c1","content":[]}`},
		{"only the members of the type are written", &Content{Type: ContentTypeText, Text: "t", URI: "x", Data: []byte("d"), Name: "n"}, `{"type":"text","text":"t"}`},
		{"annotations and meta", &Content{Type: ContentTypeText, Text: "t", Annotations: &Annotations{Audience: []Role{RoleUser}, Priority: new(float64)}, Meta: Meta{Data: map[string]any{"k": "v"}}}, `{"type":"text","text":"t","annotations":{"audience":["user"],"priority":0},"_meta":{"k":"v"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := marshalBothLibs(t, tt.content)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			var back Content
			if err := strictjson.Unmarshal([]byte(got), &back); err != nil {
				t.Fatalf("decoding own output: %v", err)
			}
			if again := marshalBothLibs(t, &back); again != got {
				t.Errorf("second round trip: got %s, want %s", again, got)
			}
		})
	}
}

func TestContentDecodeErrors(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"unknown type", `{"type":"video","data":"AA=="}`, `unknown content type "video"`},
		{"missing type", `{"text":"hi"}`, "content has no type"},
		{"type of wrong kind", `{"type":1}`, ""},
		{"bad base64", `{"type":"image","data":"not base64!","mimeType":"image/png"}`, "invalid base64"},
		{"resource without resource", `{"type":"resource"}`, `has no "resource" member`},
		{"resource with both text and blob", `{"type":"resource","resource":{"uri":"u","text":"a","blob":"AA=="}}`, `both "text" and "blob"`},
		{"tool_use inside tool_result", `{"type":"tool_result","toolUseId":"a","content":[{"type":"tool_use","id":"b","name":"n","input":{}}]}`, "not allowed inside tool_result"},
		{"unknown type inside tool_result", `{"type":"tool_result","toolUseId":"a","content":[{"type":"nope"}]}`, `unknown content type "nope"`},
		{"duplicate member", `{"type":"text","text":"a","text":"b"}`, "duplicate"},
		{"case-insensitive match is not a match", `{"Type":"text","text":"a"}`, "content has no type"},
		{"bad meta", `{"type":"text","text":"a","_meta":{"progressToken":true}}`, "progressToken must be a string or an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for lib, unmarshal := range map[string]func([]byte, any) error{"strictjson": strictjson.Unmarshal, "encoding/json": json.Unmarshal} {
				var c Content
				err := unmarshal([]byte(tt.json), &c)
				if err == nil {
					t.Fatalf("%s: decoding %s succeeded: %+v", lib, tt.json, c)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("%s: error %q does not mention %q", lib, err, tt.wantErr)
				}
			}
		})
	}
}

func TestContentMarshalErrors(t *testing.T) {
	for _, c := range []*Content{{Type: "video"}, {}, {Type: ContentTypeResource}} {
		if b, err := strictjson.Marshal(c); err == nil {
			t.Errorf("strictjson.Marshal(%+v) = %s, want error", c, b)
		}
		if b, err := json.Marshal(c); err == nil {
			t.Errorf("json.Marshal(%+v) = %s, want error", c, b)
		}
	}
}

func TestContentDecodeKeepsToolPayloadsVerbatim(t *testing.T) {
	in := `{"type":"tool_result","toolUseId":"a","content":[],"structuredContent":{ "b" : [1, 2.50] }}`
	var c Content
	if err := strictjson.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.StructuredContent.(json.RawMessage); !ok || string(got) != `{ "b" : [1, 2.50] }` {
		t.Errorf("StructuredContent = %#v, want the raw bytes", c.StructuredContent)
	}
	in = `{"type":"tool_use","id":"a","name":"n","input":{"x": 12345678901234567890}}`
	if err := strictjson.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Input.(json.RawMessage); !ok || string(got) != `{"x": 12345678901234567890}` {
		t.Errorf("Input = %#v, want the raw bytes", c.Input)
	}
}

func TestResourceContents(t *testing.T) {
	tests := []struct {
		name string
		rc   *ResourceContents
		want string
	}{
		{"text", NewTextResourceContents("file:///a", "text/plain", "hello"), `{"uri":"file:///a","mimeType":"text/plain","text":"hello"}`},
		{"empty text is written", &ResourceContents{URI: "u"}, `{"uri":"u","text":""}`},
		{"blob wins over text", &ResourceContents{URI: "u", Text: "ignored", Blob: []byte{1}}, `{"uri":"u","blob":"AQ=="}`},
		{"empty blob", NewBlobResourceContents("u", "application/octet-stream", []byte{}), `{"uri":"u","mimeType":"application/octet-stream","blob":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshalBothLibs(t, tt.rc); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	var rc ResourceContents
	if err := strictjson.Unmarshal([]byte(`{"uri":"u","blob":""}`), &rc); err != nil || rc.Blob == nil {
		t.Errorf("empty blob decoded to %#v, %v; want non-nil empty Blob", rc.Blob, err)
	}
	if err := strictjson.Unmarshal([]byte(`{"uri":"u","blob":"%%%"}`), &rc); err == nil {
		t.Error("invalid base64 blob decoded without error")
	}
}

func TestMetaRoundTrip(t *testing.T) {
	in := `{"progressToken":9007199254740993,` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"roots":{},"elicitation":{"form":{}}},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},` +
		`"io.modelcontextprotocol/logLevel":"debug",` +
		`"io.modelcontextprotocol/serverInfo":{"name":"s","version":"2"},` +
		`"io.modelcontextprotocol/subscriptionId":"listen-1",` +
		`"io.modelcontextprotocol/related-task":{"taskId":"t"},` +
		`"traceparent":"00-abc-01","com.example/n":{"a":[1,"x",null,true]}}`
	var m Meta
	if err := strictjson.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := Meta{
		ProgressToken:      int64(9007199254740993),
		ProtocolVersion:    Version20260728,
		ClientCapabilities: &ClientCapabilities{Roots: &RootsCapability{}, Elicitation: &ElicitationCapability{Form: &FormElicitationCapability{}}},
		ClientInfo:         &Implementation{Name: "c", Version: "1"},
		LogLevel:           LoggingLevelDebug,
		ServerInfo:         &Implementation{Name: "s", Version: "2"},
		SubscriptionID:     "listen-1",
		RelatedTask:        &RelatedTaskMetadata{TaskID: "t"},
		Data: map[string]any{
			"traceparent":   "00-abc-01",
			"com.example/n": map[string]any{"a": []any{1.0, "x", nil, true}},
		},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("decoded\n %#v\nwant\n %#v", m, want)
	}
	roundTripType(t, newTypeOf[Meta](), []byte(in), decodeAnyForTest(t, in))
}

func decodeAnyForTest(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := strictjson.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMetaIDs(t *testing.T) {
	tests := []struct {
		json    string
		want    any
		wantErr bool
	}{
		{`"abc"`, "abc", false},
		{`""`, "", false},
		{`0`, int64(0), false},
		{`-42`, int64(-42), false},
		{`9223372036854775807`, int64(9223372036854775807), false},
		{`1.0`, int64(1), false},
		{`1e3`, int64(1000), false},
		{`1.5`, nil, true},
		{`9223372036854775808`, nil, true},
		{`true`, nil, true},
		{`null`, nil, true},
		{`{}`, nil, true},
		{`[1]`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			for _, key := range []string{MetaKeyProgressToken, MetaKeySubscriptionID} {
				var m Meta
				err := strictjson.Unmarshal([]byte(`{"`+key+`":`+tt.json+`}`), &m)
				if tt.wantErr {
					if err == nil {
						t.Errorf("%s: decoded %s without error", key, tt.json)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				got := m.ProgressToken
				if key == MetaKeySubscriptionID {
					got = m.SubscriptionID
				}
				if got != tt.want {
					t.Errorf("%s = %#v, want %#v", key, got, tt.want)
				}
			}
		})
	}
	for _, id := range []any{int(1), int32(-1), uint64(1 << 63), "x"} {
		if _, err := strictjson.Marshal(Meta{ProgressToken: id}); err != nil {
			t.Errorf("ProgressToken %T: %v", id, err)
		}
	}
	for _, id := range []any{1.5, true, []int{1}} {
		if b, err := strictjson.Marshal(Meta{ProgressToken: id}); err == nil {
			t.Errorf("ProgressToken %T encoded as %s, want error", id, b)
		}
	}
}

func TestMetaDataConflict(t *testing.T) {
	m := Meta{ProtocolVersion: Version20260728, Data: map[string]any{MetaKeyProtocolVersion: "x"}}
	if _, err := strictjson.Marshal(m); err == nil || !strings.Contains(err.Error(), MetaKeyProtocolVersion) {
		t.Errorf("conflicting Data entry: err = %v, want an error naming the key", err)
	}
	// A reserved key in Data alone is written as given.
	m = Meta{Data: map[string]any{MetaKeyProgressToken: "t"}}
	if got := marshalBothLibs(t, m); got != `{"progressToken":"t"}` {
		t.Errorf("got %s", got)
	}
}

func TestMetaOmittedWhenEmpty(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{&PingParams{}, `{}`},
		{&PingParams{Meta: Meta{Data: map[string]any{}}}, `{}`},
		{&PingParams{Meta: Meta{ProgressToken: "p"}}, `{"_meta":{"progressToken":"p"}}`},
		{&ListToolsParams{Cursor: "c"}, `{"cursor":"c"}`},
		{&EmptyResult{}, `{}`},
		{&EmptyResult{ResultType: ResultTypeComplete}, `{"resultType":"complete"}`},
	}
	for _, tt := range tests {
		if got := marshalBothLibs(t, tt.v); got != tt.want {
			t.Errorf("%T: got %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestCapabilitiesPresence(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"empty", &ClientCapabilities{}, `{}`},
		{"empty sub-capabilities encode as {}", &ClientCapabilities{
			Roots: &RootsCapability{}, Sampling: &SamplingCapability{},
			Elicitation: &ElicitationCapability{URL: &URLElicitationCapability{}},
		}, `{"roots":{},"sampling":{},"elicitation":{"url":{}}}`},
		{"server", &ServerCapabilities{
			Logging: &LoggingCapability{}, Completions: &CompletionCapabilities{},
			Resources: &ResourceCapabilities{Subscribe: true}, Tools: &ToolCapabilities{},
			Extensions: map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
		}, `{"extensions":{"io.modelcontextprotocol/tasks":{}},"logging":{},"completions":{},"resources":{"subscribe":true},"tools":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshalBothLibs(t, tt.v); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestSamplingContentForms(t *testing.T) {
	text := NewTextContent("hi")
	tests := []struct {
		name string
		msg  *SamplingMessage
		want string
	}{
		{"one block is a single object", &SamplingMessage{Role: RoleUser, Content: []*Content{text}}, `{"role":"user","content":{"type":"text","text":"hi"}}`},
		{"two blocks are a list", &SamplingMessage{Role: RoleUser, Content: []*Content{text, text}}, `{"role":"user","content":[{"type":"text","text":"hi"},{"type":"text","text":"hi"}]}`},
		{"no blocks are an empty list", &SamplingMessage{Role: RoleUser}, `{"role":"user","content":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := marshalBothLibs(t, tt.msg); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	// The form received is the form written.
	for _, in := range []string{
		`{"role":"assistant","content":[{"type":"text","text":"a"}]}`,
		`{"role":"assistant","content":{"type":"text","text":"a"}}`,
		`{"role":"assistant","content":[]}`,
	} {
		var m SamplingMessage
		if err := strictjson.Unmarshal([]byte(in), &m); err != nil {
			t.Fatal(err)
		}
		if got := marshalBothLibs(t, &m); got != in {
			t.Errorf("got  %s\nwant %s", got, in)
		}
		var r CreateMessageResult
		in = strings.Replace(in, `{"role"`, `{"model":"m","role"`, 1)
		if err := strictjson.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Content) == 1 && r.Content[0].Text != "a" {
			t.Errorf("CreateMessageResult content = %+v", r.Content[0])
		}
	}
	var m SamplingMessage
	if err := strictjson.Unmarshal([]byte(`{"role":"user","content":"text"}`), &m); err == nil {
		t.Error("string content decoded without error")
	}
}

func TestToolSchemasPassThrough(t *testing.T) {
	in := `{"name":"t","inputSchema":{ "type" : "object", "properties": {"a": {"type":"integer","maximum": 1e400}} },"outputSchema":{"type":"array"}}`
	var tool Tool
	if err := strictjson.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if got, ok := tool.InputSchema.(json.RawMessage); !ok || string(got) != `{ "type" : "object", "properties": {"a": {"type":"integer","maximum": 1e400}} }` {
		t.Errorf("InputSchema = %#v, want the exact bytes", tool.InputSchema)
	}
	if got, ok := tool.OutputSchema.(json.RawMessage); !ok || string(got) != `{"type":"array"}` {
		t.Errorf("OutputSchema = %#v", tool.OutputSchema)
	}
	var noOutput Tool
	if err := strictjson.Unmarshal([]byte(`{"name":"t","inputSchema":{}}`), &noOutput); err != nil {
		t.Fatal(err)
	}
	if noOutput.OutputSchema != nil {
		t.Errorf("absent outputSchema decoded as %#v, want nil", noOutput.OutputSchema)
	}
	// A user may set a schema of any type that encodes as JSON.
	tool = Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}
	if got := marshalBothLibs(t, &tool); got != `{"name":"t","inputSchema":{"type":"object"}}` {
		t.Errorf("got %s", got)
	}
}

func TestCallToolParamsArgumentsRaw(t *testing.T) {
	var p CallToolParams
	in := `{"name":"add","arguments":{"a": 1, "b": 2}}`
	if err := strictjson.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Arguments.(json.RawMessage); !ok || string(got) != `{"a": 1, "b": 2}` {
		t.Errorf("Arguments = %#v, want the exact bytes", p.Arguments)
	}
	p = CallToolParams{Name: "add", Arguments: struct {
		A int `json:"a"`
	}{1}}
	if got := marshalBothLibs(t, &p); got != `{"name":"add","arguments":{"a":1}}` {
		t.Errorf("got %s", got)
	}
}

func TestInputRequiredResultIntoCallToolResult(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "types", Version20260728, "InputRequiredResult",
		"input-required-result-with-elicitation-and-sampling-and-request-state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r CallToolResult
	if err := strictjson.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.ResultType != ResultTypeInputRequired || r.RequestState != "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0" {
		t.Errorf("ResultType %q, RequestState %q", r.ResultType, r.RequestState)
	}
	elicit, ok := r.InputRequests["github_login"].Params.(*ElicitParams)
	if !ok || elicit.Message != "Please provide your GitHub username" || elicit.RequestedSchema.Properties["name"].Type != "string" {
		t.Errorf("github_login params = %#v", r.InputRequests["github_login"].Params)
	}
	sample, ok := r.InputRequests["capital_of_france"].Params.(*CreateMessageParams)
	if !ok || sample.MaxTokens != 100 || sample.Messages[0].Content[0].Text != "What is the capital of France?" {
		t.Errorf("capital_of_france params = %#v", r.InputRequests["capital_of_france"].Params)
	}
	// An unknown method keeps its params raw.
	var ir InputRequest
	if err := strictjson.Unmarshal([]byte(`{"method":"x/y","params":{"a":1}}`), &ir); err != nil {
		t.Fatal(err)
	}
	if got, ok := ir.Params.(json.RawMessage); !ok || string(got) != `{"a":1}` {
		t.Errorf("unknown method params = %#v", ir.Params)
	}
}

func TestInputResponsesInRetry(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "types", Version20260728, "InputResponses",
		"elicitation-and-sampling-input-responses.json"))
	if err != nil {
		t.Fatal(err)
	}
	in := `{"name":"t","inputResponses":` + string(data) + `,"requestState":"s"}`
	var p CallToolParams
	if err := strictjson.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	var elicit ElicitResult
	if err := strictjson.Unmarshal(p.InputResponses["github_login"], &elicit); err != nil || elicit.Content["name"] != "octocat" {
		t.Errorf("github_login = %+v, %v", elicit, err)
	}
	var sample CreateMessageResult
	if err := strictjson.Unmarshal(p.InputResponses["capital_of_france"], &sample); err != nil || sample.Model != "claude-3-sonnet-20240307" {
		t.Errorf("capital_of_france = %+v, %v", sample, err)
	}
	roundTripType(t, newTypeOf[CallToolParams](), []byte(in), decodeAnyForTest(t, in))
}

func TestIDNormalizationInNotifications(t *testing.T) {
	var c CancelledParams
	if err := strictjson.Unmarshal([]byte(`{"requestId":7,"reason":"r"}`), &c); err != nil || c.RequestID != int64(7) {
		t.Errorf("CancelledParams = %+v, %v", c, err)
	}
	if err := strictjson.Unmarshal([]byte(`{"requestId":{}}`), &c); err == nil {
		t.Error("object request ID decoded without error")
	}
	var p ProgressNotificationParams
	if err := json.Unmarshal([]byte(`{"progressToken":"t","progress":1}`), &p); err != nil || p.ProgressToken != "t" {
		t.Errorf("ProgressNotificationParams = %+v, %v", p, err)
	}
}

func TestGetTaskPayloadResultDecode(t *testing.T) {
	in := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}},"content":[{"type":"text","text":"done"}],"isError":true}`
	var r GetTaskPayloadResult
	if err := strictjson.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	var ctr CallToolResult
	if err := r.Decode(&ctr); err != nil {
		t.Fatal(err)
	}
	if !ctr.IsError || ctr.Content[0].Text != "done" || ctr.Meta.RelatedTask.TaskID != "t1" {
		t.Errorf("decoded payload = %+v", ctr)
	}
}

func TestSupportedVersions(t *testing.T) {
	mine := SupportedVersions()
	mine[0] = "changed by the caller" // the caller's own copy
	SupportedVersions := SupportedVersions()
	if SupportedVersions[0] != LatestVersion {
		t.Errorf("SupportedVersions[0] = %s, want LatestVersion %s", SupportedVersions[0], LatestVersion)
	}
	if !slices.IsSortedFunc(SupportedVersions, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("SupportedVersions not newest first: %v", SupportedVersions)
	}
	want := []string{Version20260728, Version20251125, Version20250618, Version20250326, Version20241105}
	if !slices.Equal(SupportedVersions, want) {
		t.Errorf("SupportedVersions = %v, want %v", SupportedVersions, want)
	}
	for _, v := range want {
		if _, err := os.Stat(filepath.Join("testdata", "types", v)); err != nil {
			t.Errorf("no fixtures for version %s: %v", v, err)
		}
	}
}

// fuzzTypeRoundTrip checks that whatever decodes also encodes, and that the
// encoding decodes to a value that encodes identically.
func fuzzTypeRoundTrip[T any](t *testing.T, data []byte) {
	var v T
	_ = json.Unmarshal(data, new(T)) // must not panic
	if err := strictjson.Unmarshal(data, &v); err != nil {
		return
	}
	out, err := strictjson.Marshal(&v)
	if err != nil {
		t.Fatalf("decoded %q but cannot encode it: %v", data, err)
	}
	var back T
	if err := strictjson.Unmarshal(out, &back); err != nil {
		t.Fatalf("cannot decode own encoding %s: %v", out, err)
	}
	again, err := strictjson.Marshal(&back)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("encoding not stable:\n%s\n%s (%v)", out, again, err)
	}
}

func addTypeFuzzSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzContentUnmarshal(f *testing.F) {
	addTypeFuzzSeeds(f,
		`{"type":"text","text":"hi"}`,
		`{"type":"image","data":"AAEC","mimeType":"image/png","annotations":{"priority":0.5}}`,
		`{"type":"audio","data":"","mimeType":"audio/wav"}`,
		`{"type":"resource_link","uri":"u","name":"n","size":3,"icons":[{"src":"s"}]}`,
		`{"type":"resource","resource":{"uri":"u","blob":"AA=="}}`,
		`{"type":"tool_use","id":"1","name":"n","input":{"a":[1,{}]}}`,
		`{"type":"tool_result","toolUseId":"1","content":[{"type":"text","text":"x"}],"structuredContent":null,"isError":true}`,
		`{"type":"text","text":"a","_meta":{"progressToken":1,"x":{}}}`,
		`{"type":"video"}`, `{}`, `null`, `[]`, `{"type":"text","type":"text"}`,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzTypeRoundTrip[Content](t, data)
		fuzzTypeRoundTrip[SamplingMessage](t, data)
	})
}

func FuzzMetaUnmarshal(f *testing.F) {
	addTypeFuzzSeeds(f,
		`{}`, `null`,
		`{"progressToken":"a"}`, `{"progressToken":-1}`, `{"progressToken":1e2}`,
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`,
		`{"io.modelcontextprotocol/clientInfo":{"name":"n","version":"v","icons":[]}}`,
		`{"io.modelcontextprotocol/subscriptionId":5,"io.modelcontextprotocol/logLevel":"info"}`,
		`{"io.modelcontextprotocol/related-task":{"taskId":"t"},"a":[1,2,{"b":null}]}`,
		`{"progressToken":"a","progressToken":"b"}`,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzTypeRoundTrip[Meta](t, data)
	})
}

func FuzzResourceContentsUnmarshal(f *testing.F) {
	addTypeFuzzSeeds(f, `{"uri":"u","text":"t"}`, `{"uri":"u","blob":"AA=="}`, `{"uri":"u","text":"t","blob":""}`, `{"uri":"u"}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzTypeRoundTrip[ResourceContents](t, data)
		fuzzTypeRoundTrip[InputRequest](t, data)
	})
}

func ExampleNewTextContent() {
	res := &CallToolResult{Content: []*Content{NewTextContent("hello")}}
	b, err := json.Marshal(res)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output: {"content":[{"type":"text","text":"hello"}]}
}

func ExampleMeta() {
	var p CallToolParams
	err := json.Unmarshal([]byte(`{"_meta":{"progressToken":42,"com.example/trace":"t1"},"name":"add"}`), &p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%T %v %v\n", p.Meta.ProgressToken, p.Meta.ProgressToken, p.Meta.Data["com.example/trace"])
	// Output: int64 42 t1
}
