package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Golden wire tests: every fixture under testdata/types/<version>/<Type>/
// is decoded into the Go type that models <Type>, encoded again, and
// compared with the fixture. The 2026-07-28 fixtures are the official
// examples; the others are hand-made (see testdata/types/README.md).

// typeFixture says how to test the fixtures of one schema type.
type typeFixture struct {
	// newValue returns a pointer to a new value of the Go type.
	newValue func() any
	// member, if set, is the path of the member of the fixture that holds
	// the value (for JSON-RPC envelopes: "params", "result", "error.data").
	member string
	// method, if set, is the method constant the fixture's "method" must
	// equal.
	method string
	// code, if non-zero, is the error code constant the fixture's
	// "error.code" (or "code") must equal.
	code ErrorCode
	// ignore lists members of the value that the Go type does not carry, with
	// the reason in a comment where the entry is made.
	ignore []string
}

func newTypeOf[T any]() func() any { return func() any { return new(T) } }

var typeFixtures = map[string]typeFixture{
	// Content and resource contents.
	"TextContent":          {newValue: newTypeOf[Content]()},
	"ImageContent":         {newValue: newTypeOf[Content]()},
	"AudioContent":         {newValue: newTypeOf[Content]()},
	"EmbeddedResource":     {newValue: newTypeOf[Content]()},
	"ResourceLink":         {newValue: newTypeOf[Content]()},
	"ToolUseContent":       {newValue: newTypeOf[Content]()},
	"ToolResultContent":    {newValue: newTypeOf[Content]()},
	"TextResourceContents": {newValue: newTypeOf[ResourceContents]()},
	"BlobResourceContents": {newValue: newTypeOf[ResourceContents]()},

	// Objects.
	"Tool":               {newValue: newTypeOf[Tool]()},
	"Resource":           {newValue: newTypeOf[Resource]()},
	"ResourceTemplate":   {newValue: newTypeOf[ResourceTemplate]()},
	"Prompt":             {newValue: newTypeOf[Prompt]()},
	"Root":               {newValue: newTypeOf[Root]()},
	"Implementation":     {newValue: newTypeOf[Implementation]()},
	"ModelPreferences":   {newValue: newTypeOf[ModelPreferences]()},
	"SamplingMessage":    {newValue: newTypeOf[SamplingMessage]()},
	"ClientCapabilities": {newValue: newTypeOf[ClientCapabilities]()},
	"ServerCapabilities": {newValue: newTypeOf[ServerCapabilities]()},

	// Elicitation schemas.
	"StringSchema":                   {newValue: newTypeOf[PrimitiveSchema]()},
	"NumberSchema":                   {newValue: newTypeOf[PrimitiveSchema]()},
	"BooleanSchema":                  {newValue: newTypeOf[PrimitiveSchema]()},
	"UntitledSingleSelectEnumSchema": {newValue: newTypeOf[PrimitiveSchema]()},
	"TitledSingleSelectEnumSchema":   {newValue: newTypeOf[PrimitiveSchema]()},
	"UntitledMultiSelectEnumSchema":  {newValue: newTypeOf[PrimitiveSchema]()},
	"TitledMultiSelectEnumSchema":    {newValue: newTypeOf[PrimitiveSchema]()},

	// Params.
	"InitializeRequestParams":           {newValue: newTypeOf[InitializeParams]()},
	"CallToolRequestParams":             {newValue: newTypeOf[CallToolParams]()},
	"CompleteRequestParams":             {newValue: newTypeOf[CompleteParams]()},
	"CreateMessageRequestParams":        {newValue: newTypeOf[CreateMessageParams]()},
	"ElicitRequestParams":               {newValue: newTypeOf[ElicitParams]()},
	"ElicitRequestFormParams":           {newValue: newTypeOf[ElicitParams]()},
	"ElicitRequestURLParams":            {newValue: newTypeOf[ElicitParams]()},
	"GetPromptRequestParams":            {newValue: newTypeOf[GetPromptParams]()},
	"PaginatedRequestParams":            {newValue: newTypeOf[ListToolsParams]()},
	"SetLevelRequestParams":             {newValue: newTypeOf[SetLoggingLevelParams]()},
	"SubscribeRequestParams":            {newValue: newTypeOf[SubscribeParams]()},
	"UnsubscribeRequestParams":          {newValue: newTypeOf[UnsubscribeParams]()},
	"CancelledNotificationParams":       {newValue: newTypeOf[CancelledParams]()},
	"LoggingMessageNotificationParams":  {newValue: newTypeOf[LoggingMessageParams]()},
	"ProgressNotificationParams":        {newValue: newTypeOf[ProgressNotificationParams]()},
	"ResourceUpdatedNotificationParams": {newValue: newTypeOf[ResourceUpdatedParams]()},
	"TaskStatusNotificationParams":      {newValue: newTypeOf[TaskStatusParams]()},
	"InputRequests":                     {newValue: newTypeOf[map[string]*InputRequest]()},
	"InputResponses":                    {newValue: newTypeOf[map[string]json.RawMessage]()},

	// Results.
	"CallToolResult":              {newValue: newTypeOf[CallToolResult]()},
	"CancelTaskResult":            {newValue: newTypeOf[CancelTaskResult]()},
	"CompleteResult":              {newValue: newTypeOf[CompleteResult]()},
	"CreateMessageResult":         {newValue: newTypeOf[CreateMessageResult]()},
	"CreateTaskResult":            {newValue: newTypeOf[CreateTaskResult]()},
	"DiscoverResult":              {newValue: newTypeOf[DiscoverResult]()},
	"ElicitResult":                {newValue: newTypeOf[ElicitResult]()},
	"EmptyResult":                 {newValue: newTypeOf[EmptyResult]()},
	"GetPromptResult":             {newValue: newTypeOf[GetPromptResult]()},
	"GetTaskPayloadResult":        {newValue: newTypeOf[GetTaskPayloadResult]()},
	"GetTaskResult":               {newValue: newTypeOf[GetTaskResult]()},
	"InitializeResult":            {newValue: newTypeOf[InitializeResult]()},
	"InputRequiredResult":         {newValue: newTypeOf[InputRequiredResult]()},
	"ListPromptsResult":           {newValue: newTypeOf[ListPromptsResult]()},
	"ListResourceTemplatesResult": {newValue: newTypeOf[ListResourceTemplatesResult]()},
	"ListResourcesResult":         {newValue: newTypeOf[ListResourcesResult]()},
	"ListRootsResult":             {newValue: newTypeOf[ListRootsResult]()},
	"ListTasksResult":             {newValue: newTypeOf[ListTasksResult]()},
	"ListToolsResult":             {newValue: newTypeOf[ListToolsResult]()},
	"ReadResourceResult":          {newValue: newTypeOf[ReadResourceResult]()},
	"SubscriptionsListenResult":   {newValue: newTypeOf[SubscriptionsListenResult]()},

	// JSON-RPC requests: the params member.
	"CallToolRequest":              {newValue: newTypeOf[CallToolParams](), member: "params", method: MethodCallTool},
	"CompleteRequest":              {newValue: newTypeOf[CompleteParams](), member: "params", method: MethodComplete},
	"DiscoverRequest":              {newValue: newTypeOf[DiscoverParams](), member: "params", method: MethodDiscover},
	"GetPromptRequest":             {newValue: newTypeOf[GetPromptParams](), member: "params", method: MethodGetPrompt},
	"GetTaskRequest":               {newValue: newTypeOf[GetTaskParams](), member: "params", method: MethodGetTask},
	"InitializeRequest":            {newValue: newTypeOf[InitializeParams](), member: "params", method: MethodInitialize},
	"ListPromptsRequest":           {newValue: newTypeOf[ListPromptsParams](), member: "params", method: MethodListPrompts},
	"ListResourceTemplatesRequest": {newValue: newTypeOf[ListResourceTemplatesParams](), member: "params", method: MethodListResourceTemplates},
	"ListResourcesRequest":         {newValue: newTypeOf[ListResourcesParams](), member: "params", method: MethodListResources},
	"ListToolsRequest":             {newValue: newTypeOf[ListToolsParams](), member: "params", method: MethodListTools},
	"PingRequest":                  {newValue: newTypeOf[PingParams](), member: "params", method: MethodPing},
	"ReadResourceRequest":          {newValue: newTypeOf[ReadResourceParams](), member: "params", method: MethodReadResource},
	"SubscriptionsListenRequest":   {newValue: newTypeOf[SubscriptionsListenParams](), member: "params", method: MethodSubscriptionsListen},

	// Input requests (2026-07-28): a method and params without a JSON-RPC
	// envelope. The ListRootsRequest example carries an "id", which an input
	// request does not have, so it is ignored.
	"CreateMessageRequest": {newValue: newTypeOf[InputRequest](), method: MethodCreateMessage},
	"ElicitRequest":        {newValue: newTypeOf[InputRequest](), method: MethodElicit},
	"ListRootsRequest":     {newValue: newTypeOf[InputRequest](), method: MethodListRoots, ignore: []string{"id"}},

	// JSON-RPC notifications: the params member.
	"CancelledNotification":                 {newValue: newTypeOf[CancelledParams](), member: "params", method: NotificationCancelled},
	"ElicitationCompleteNotification":       {newValue: newTypeOf[ElicitationCompleteParams](), member: "params", method: NotificationElicitationComplete},
	"InitializedNotification":               {newValue: newTypeOf[InitializedParams](), member: "params", method: NotificationInitialized},
	"LoggingMessageNotification":            {newValue: newTypeOf[LoggingMessageParams](), member: "params", method: NotificationLoggingMessage},
	"ProgressNotification":                  {newValue: newTypeOf[ProgressNotificationParams](), member: "params", method: NotificationProgress},
	"PromptListChangedNotification":         {newValue: newTypeOf[PromptListChangedParams](), member: "params", method: NotificationPromptListChanged},
	"ResourceListChangedNotification":       {newValue: newTypeOf[ResourceListChangedParams](), member: "params", method: NotificationResourceListChanged},
	"ResourceUpdatedNotification":           {newValue: newTypeOf[ResourceUpdatedParams](), member: "params", method: NotificationResourceUpdated},
	"RootsListChangedNotification":          {newValue: newTypeOf[RootsListChangedParams](), member: "params", method: NotificationRootsListChanged},
	"SubscriptionsAcknowledgedNotification": {newValue: newTypeOf[SubscriptionsAcknowledgedParams](), member: "params", method: NotificationSubscriptionsAcknowledged},
	"ToolListChangedNotification":           {newValue: newTypeOf[ToolListChangedParams](), member: "params", method: NotificationToolListChanged},

	// JSON-RPC responses: the result member.
	"CallToolResultResponse":              {newValue: newTypeOf[CallToolResult](), member: "result"},
	"CompleteResultResponse":              {newValue: newTypeOf[CompleteResult](), member: "result"},
	"DiscoverResultResponse":              {newValue: newTypeOf[DiscoverResult](), member: "result"},
	"GetPromptResultResponse":             {newValue: newTypeOf[GetPromptResult](), member: "result"},
	"ListPromptsResultResponse":           {newValue: newTypeOf[ListPromptsResult](), member: "result"},
	"ListResourceTemplatesResultResponse": {newValue: newTypeOf[ListResourceTemplatesResult](), member: "result"},
	"ListResourcesResultResponse":         {newValue: newTypeOf[ListResourcesResult](), member: "result"},
	"ListToolsResultResponse":             {newValue: newTypeOf[ListToolsResult](), member: "result"},
	"ReadResourceResultResponse":          {newValue: newTypeOf[ReadResourceResult](), member: "result"},
	"SubscriptionsListenResultResponse":   {newValue: newTypeOf[SubscriptionsListenResult](), member: "result"},

	// Errors: the error object itself is the JSON-RPC engine's type; this
	// package models the codes and the data of MCP's own errors.
	"ParseError":                           {code: CodeParseError},
	"InvalidParamsError":                   {code: CodeInvalidParams},
	"MethodNotFoundError":                  {code: CodeMethodNotFound},
	"InternalError":                        {code: CodeInternalError},
	"HeaderMismatchError":                  {code: CodeHeaderMismatch},
	"ResourceNotFoundError":                {code: CodeResourceNotFound},
	"MissingRequiredClientCapabilityError": {newValue: newTypeOf[MissingCapabilitiesData](), member: "error.data", code: CodeMissingRequiredClientCapability},
	"UnsupportedProtocolVersionError":      {newValue: newTypeOf[UnsupportedProtocolVersionData](), member: "error.data", code: CodeUnsupportedProtocolVersion},
	"URLElicitationRequiredError":          {newValue: newTypeOf[URLElicitationRequiredData](), member: "error.data", code: CodeURLElicitationRequired},
}

// defaultFalseMembers lists members whose absence the schemas define as false, so
// an encoder may omit them when false. The comparison treats "name": false
// and an absent member alike for these names only.
var defaultFalseMembers = map[string]bool{
	"isError": true, "hasMore": true, "listChanged": true, "subscribe": true,
	"required": true, "readOnlyHint": true, "idempotentHint": true,
	"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true,
}

func TestGoldenTypes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "types", "*", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 150 {
		t.Fatalf("found only %d fixtures; is testdata/types complete?", len(files))
	}
	for _, file := range files {
		typeName := filepath.Base(filepath.Dir(file))
		name := strings.TrimPrefix(filepath.ToSlash(file), "testdata/types/")
		t.Run(name, func(t *testing.T) {
			gt, ok := typeFixtures[typeName]
			if !ok {
				t.Fatalf("no Go type registered for schema type %s", typeName)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkTypeFixture(t, gt, data)
		})
	}
}

func checkTypeFixture(t *testing.T, gt typeFixture, data []byte) {
	t.Helper()
	var whole any
	if err := strictjson.Unmarshal(data, &whole); err != nil {
		t.Fatalf("fixture is not valid JSON: %v", err)
	}
	if gt.method != "" {
		if got := jsonMemberAt(t, whole, "method"); got != gt.method {
			t.Errorf("method = %v, want %q", got, gt.method)
		}
	}
	if gt.code != 0 {
		code := jsonMemberAt(t, whole, "error.code")
		if code == nil {
			code = jsonMemberAt(t, whole, "code")
		}
		if code != float64(gt.code) {
			t.Errorf("error code = %v, want %d", code, gt.code)
		}
	}
	if gt.newValue == nil {
		return
	}
	want := whole
	if gt.member != "" {
		want = jsonMemberAt(t, whole, gt.member)
		if want == nil {
			return // an envelope without params: only the method is checked
		}
	}
	for _, m := range gt.ignore {
		delete(want.(map[string]any), m)
	}
	raw, err := strictjson.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	roundTripType(t, gt.newValue, raw, want)
}

// roundTripType decodes raw into a new value, encodes it again with strictjson
// and with encoding/json, and checks that both encodings are identical and
// mean the same as want. It also checks that decoding with encoding/json
// gives a value that encodes identically.
func roundTripType(t *testing.T, newValue func() any, raw []byte, want any) {
	t.Helper()
	v := newValue()
	if err := strictjson.Unmarshal(raw, v); err != nil {
		t.Fatalf("strictjson.Unmarshal into %T: %v\n%s", v, err, raw)
	}
	got, err := strictjson.Marshal(v)
	if err != nil {
		t.Fatalf("strictjson.Marshal(%T): %v", v, err)
	}
	var gotAny any
	if err := strictjson.Unmarshal(got, &gotAny); err != nil {
		t.Fatal(err)
	}
	if w, g := normalizeFixture(want), normalizeFixture(gotAny); !reflect.DeepEqual(w, g) {
		t.Errorf("round trip through %T changed the value\n got: %s\nwant: %s", v, got, raw)
	}
	if v1 := marshalWithV1(t, v); !bytes.Equal(v1, got) {
		t.Errorf("encoding/json and strictjson disagree on %T\n  v1: %s\nv2: %s", v, v1, got)
	}
	v1Value := newValue()
	if err := json.Unmarshal(raw, v1Value); err != nil {
		t.Fatalf("encoding/json.Unmarshal into %T: %v", v1Value, err)
	}
	if again, err := strictjson.Marshal(v1Value); err != nil || !bytes.Equal(again, got) {
		t.Errorf("decoding with encoding/json gave a different value (err %v)\n  v1: %s\nv2: %s", err, again, got)
	}
}

// marshalWithV1 encodes v with encoding/json, without HTML escaping (which
// strictjson does not do either).
func marshalWithV1(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json.Marshal(%T): %v", v, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// jsonMemberAt returns the member at a dotted path of v, or nil.
func jsonMemberAt(t *testing.T, v any, path string) any {
	t.Helper()
	for _, name := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[name]
	}
	return v
}

// normalizeFixture drops members named in defaultFalseMembers whose value is false.
func normalizeFixture(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if b, ok := x.(bool); ok && !b && defaultFalseMembers[k] {
				continue
			}
			out[k] = normalizeFixture(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalizeFixture(x)
		}
		return out
	}
	return v
}

// TestGoldenCoverage checks that every official example type is either
// modeled (registered in typeFixtures) or listed as not modeled.
func TestGoldenCoverage(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "types", Version20260728))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, d := range dirs {
		if d.IsDir() {
			if _, ok := typeFixtures[d.Name()]; !ok {
				missing = append(missing, d.Name())
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("example types without a Go type: %v", missing)
	}
}

// TestMethodConstants checks the method constants against every method
// name in the schemas (testdata/types/methods.json).
func TestMethodConstants(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "types", "methods.json"))
	if err != nil {
		t.Fatal(err)
	}
	var byVersion map[string][]string
	if err := strictjson.Unmarshal(data, &byVersion); err != nil {
		t.Fatal(err)
	}
	constants := []string{
		MethodInitialize, MethodPing, MethodDiscover, MethodListTools, MethodCallTool,
		MethodListPrompts, MethodGetPrompt, MethodListResources, MethodListResourceTemplates,
		MethodReadResource, MethodSubscribe, MethodUnsubscribe, MethodSubscriptionsListen,
		MethodComplete, MethodSetLoggingLevel, MethodCreateMessage, MethodListRoots, MethodElicit,
		MethodGetTask, MethodGetTaskPayload, MethodCancelTask, MethodListTasks,
		NotificationInitialized, NotificationCancelled, NotificationProgress,
		NotificationLoggingMessage, NotificationToolListChanged, NotificationPromptListChanged,
		NotificationResourceListChanged, NotificationResourceUpdated, NotificationRootsListChanged,
		NotificationElicitationComplete, NotificationTaskStatus, NotificationSubscriptionsAcknowledged,
	}
	var all []string
	for _, v := range SupportedVersions() {
		methods, ok := byVersion[v]
		if !ok {
			t.Errorf("methods.json has no version %s", v)
		}
		all = append(all, methods...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	slices.Sort(constants)
	if !slices.Equal(all, constants) {
		t.Errorf("method constants do not match the schemas\nconstants: %v\n  schemas: %v", constants, all)
	}
}
