package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ---- Tools ----

// Tool describes a tool the server offers.
type Tool struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// Name is the programmatic name of the tool.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description tells the model what the tool does.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments, an object
	// schema. It may be any value that encodes as a schema, such as a
	// *jsonschema.Schema, a map or a json.RawMessage. After decoding it is
	// a json.RawMessage with the bytes received.
	InputSchema any `json:"inputSchema"`
	// OutputSchema is the JSON Schema of the tool's structured content
	// (2025-06-18). After decoding it is a json.RawMessage.
	OutputSchema any `json:"outputSchema,omitzero"`
	// Annotations describe the tool's behavior (2025-03-26).
	Annotations *ToolAnnotations `json:"annotations,omitzero"`
	// Icons are icons of the tool (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
	// Execution describes how the tool runs (2025-11-25).
	Execution *ToolExecution `json:"execution,omitzero"`
}

// UnmarshalJSON decodes a tool, keeping its schemas as the exact bytes
// received.
func (t *Tool) UnmarshalJSON(data []byte) error {
	type plain Tool
	var w struct {
		plain
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*t = Tool(w.plain)
	t.InputSchema, t.OutputSchema = rawOrNil(w.InputSchema), rawOrNil(w.OutputSchema)
	return nil
}

// rawOrNil returns raw as an any, or a nil any if raw is nil, so that an
// absent member stays absent.
func rawOrNil(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	return raw
}

// ToolAnnotations are hints about a tool's behavior (2025-03-26). They are
// not guaranteed to be accurate; clients must not rely on them for
// security decisions.
type ToolAnnotations struct {
	// Title is a display name for the tool.
	Title string `json:"title,omitempty"`
	// ReadOnlyHint reports that the tool does not modify its environment.
	ReadOnlyHint bool `json:"readOnlyHint,omitzero"`
	// DestructiveHint reports whether the tool may perform destructive
	// updates; nil means the default, true.
	DestructiveHint *bool `json:"destructiveHint,omitzero"`
	// IdempotentHint reports that repeating a call with the same arguments
	// has no further effect.
	IdempotentHint bool `json:"idempotentHint,omitzero"`
	// OpenWorldHint reports whether the tool interacts with external
	// entities; nil means the default, true.
	OpenWorldHint *bool `json:"openWorldHint,omitzero"`
}

// Values of [ToolExecution.TaskSupport] (2025-11-25).
const (
	// TaskSupportForbidden means the tool cannot run as a task (default).
	TaskSupportForbidden = "forbidden"
	// TaskSupportOptional means the tool may run as a task.
	TaskSupportOptional = "optional"
	// TaskSupportRequired means the tool must run as a task.
	TaskSupportRequired = "required"
)

// ToolExecution describes how a tool runs (2025-11-25).
type ToolExecution struct {
	// TaskSupport says whether the tool can run as a task; see the
	// TaskSupport constants.
	TaskSupport string `json:"taskSupport,omitempty"`
}

// ListToolsParams are the params of tools/list.
type ListToolsParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is the result of tools/list.
type ListToolsResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Tools is one page of tools.
	Tools []*Tool `json:"tools"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// CallToolParams are the params of tools/call.
type CallToolParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Name is the name of the tool.
	Name string `json:"name"`
	// Arguments are the tool's arguments, a JSON object. After decoding they
	// are a json.RawMessage with the bytes received.
	Arguments any `json:"arguments,omitzero"`
	// Task asks the server to run the call as a task (2025-11-25).
	Task *TaskMetadata `json:"task,omitzero"`
	// InputResponses answer the InputRequests of a previous
	// InputRequiredResult, keyed like them (2026-07-28).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// RequestState echoes the RequestState of a previous
	// InputRequiredResult (2026-07-28).
	RequestState string `json:"requestState,omitempty"`
}

// UnmarshalJSON decodes the params of tools/call, keeping the arguments as
// the exact bytes received.
func (p *CallToolParams) UnmarshalJSON(data []byte) error {
	type plain CallToolParams
	var w struct {
		plain
		Arguments json.RawMessage `json:"arguments,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*p = CallToolParams(w.plain)
	p.Arguments = rawOrNil(w.Arguments)
	return nil
}

// CallToolResult is the result of tools/call. In 2026-07-28 it may instead
// be an input-required result: then ResultType is "input_required" and
// InputRequests and RequestState are set.
type CallToolResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" or "input_required" in 2026-07-28 and empty
	// before.
	ResultType string `json:"resultType,omitempty"`
	// Content is the unstructured result of the call.
	Content []*Content `json:"content"`
	// StructuredContent is the structured result of the call (2025-06-18),
	// conforming to the tool's output schema: a JSON object, or since
	// 2026-07-28 any JSON value. After decoding it is a json.RawMessage.
	StructuredContent any `json:"structuredContent,omitzero"`
	// IsError reports that the tool failed; Content then describes the
	// error.
	IsError bool `json:"isError,omitzero"`
	// InputRequests are the requests the client must fulfil before retrying
	// (2026-07-28, input-required results only).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque state to echo on retry (2026-07-28,
	// input-required results only).
	RequestState string `json:"requestState,omitempty"`
}

// UnmarshalJSON decodes the result of tools/call, keeping the structured
// content as the exact bytes received.
func (r *CallToolResult) UnmarshalJSON(data []byte) error {
	*r = CallToolResult{}
	if r.decodeDirect(data) {
		return nil
	}
	return r.decodeGeneral(data)
}

// decodeGeneral decodes any result with the reflective decoder.
func (r *CallToolResult) decodeGeneral(data []byte) error {
	type plain CallToolResult
	var w struct {
		plain
		StructuredContent json.RawMessage `json:"structuredContent,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*r = CallToolResult(w.plain)
	r.StructuredContent = rawOrNil(w.StructuredContent)
	return nil
}

// ToolListChangedParams are the params of notifications/tools/list_changed.
type ToolListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}
