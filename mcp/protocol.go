package mcp

import (
	"encoding/json"

	"github.com/gomcp/sdk/internal/strictjson"
)

// This file holds the params and results of every method and notification
// of every supported protocol version, and the objects they carry. Fields
// that a later version added are optional and omitted when zero; each
// doc comment names the version that introduced the type or field when it
// is not 2024-11-05.

// Role is the sender or recipient of a message or piece of content.
type Role string

// Roles.
const (
	// RoleUser is the user side of a conversation.
	RoleUser Role = "user"
	// RoleAssistant is the model side of a conversation.
	RoleAssistant Role = "assistant"
)

// LoggingLevel is the severity of a log message, as in syslog (RFC 5424).
type LoggingLevel string

// Logging levels, from least to most severe.
const (
	// LoggingLevelDebug is detailed debugging information.
	LoggingLevelDebug LoggingLevel = "debug"
	// LoggingLevelInfo is a general informational message.
	LoggingLevelInfo LoggingLevel = "info"
	// LoggingLevelNotice is a normal but significant event.
	LoggingLevelNotice LoggingLevel = "notice"
	// LoggingLevelWarning is a warning condition.
	LoggingLevelWarning LoggingLevel = "warning"
	// LoggingLevelError is an error condition.
	LoggingLevelError LoggingLevel = "error"
	// LoggingLevelCritical is a critical condition.
	LoggingLevelCritical LoggingLevel = "critical"
	// LoggingLevelAlert means action must be taken immediately.
	LoggingLevelAlert LoggingLevel = "alert"
	// LoggingLevelEmergency means the system is unusable.
	LoggingLevelEmergency LoggingLevel = "emergency"
)

// Values of the resultType member of results (2026-07-28). A result without
// resultType, from an earlier version, counts as [ResultTypeComplete].
const (
	// ResultTypeComplete marks a final result.
	ResultTypeComplete = "complete"
	// ResultTypeInputRequired marks an [InputRequiredResult].
	ResultTypeInputRequired = "input_required"
)

// Values of the cacheScope member of cacheable results (2026-07-28).
const (
	// CacheScopePublic means the result holds no user-specific data and any
	// cache may share it.
	CacheScopePublic = "public"
	// CacheScopePrivate means the result may be cached only within the same
	// authorization context.
	CacheScopePrivate = "private"
)

// Implementation identifies the software of a client or server.
type Implementation struct {
	// Name is the programmatic name of the software.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Version is the version of the software.
	Version string `json:"version"`
	// Description describes the software (2025-11-25).
	Description string `json:"description,omitempty"`
	// WebsiteURL is the URL of the software's website (2025-11-25).
	WebsiteURL string `json:"websiteUrl,omitempty"`
	// Icons are icons of the software (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// Icon is an image a client may display for an object (2025-11-25).
type Icon struct {
	// Src is an HTTP(S) or data: URI of the image.
	Src string `json:"src"`
	// MIMEType is the media type of the image, if not implied by Src.
	MIMEType string `json:"mimeType,omitempty"`
	// Sizes lists the sizes the image is suitable for, such as "48x48" or
	// "any".
	Sizes []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark" if the icon is meant for that theme.
	Theme string `json:"theme,omitempty"`
}

// ---- Lifecycle ----

// InitializeParams are the params of initialize, the first request of a
// session (2024-11-05 to 2025-11-25).
type InitializeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ProtocolVersion is the newest version the client supports.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the client's capabilities.
	Capabilities *ClientCapabilities `json:"capabilities"`
	// ClientInfo identifies the client.
	ClientInfo *Implementation `json:"clientInfo"`
}

// InitializeResult is the result of initialize (2024-11-05 to 2025-11-25).
type InitializeResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// ProtocolVersion is the version the server chose.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the server's capabilities.
	Capabilities *ServerCapabilities `json:"capabilities"`
	// ServerInfo identifies the server.
	ServerInfo *Implementation `json:"serverInfo"`
	// Instructions tell the model how to use the server.
	Instructions string `json:"instructions,omitempty"`
}

// InitializedParams are the params of notifications/initialized
// (2024-11-05 to 2025-11-25).
type InitializedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// PingParams are the params of ping (2024-11-05 to 2025-11-25).
type PingParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// EmptyResult is the result of requests that return nothing: ping,
// resources/subscribe, resources/unsubscribe and logging/setLevel.
type EmptyResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
}

// DiscoverParams are the params of server/discover (2026-07-28).
type DiscoverParams struct {
	// Meta is the _meta member, with the request's protocol fields.
	Meta Meta `json:"_meta,omitzero"`
}

// DiscoverResult is the result of server/discover: the server's versions,
// capabilities and instructions; its identity is Meta.ServerInfo
// (2026-07-28).
type DiscoverResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete".
	ResultType string `json:"resultType,omitempty"`
	// SupportedVersions lists the protocol versions the server supports.
	SupportedVersions []string `json:"supportedVersions"`
	// Capabilities are the server's capabilities.
	Capabilities *ServerCapabilities `json:"capabilities"`
	// Instructions tell the model how to use the server.
	Instructions string `json:"instructions,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result.
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate.
	CacheScope string `json:"cacheScope,omitempty"`
}

// ---- Multi round-trip requests (2026-07-28) ----

// InputRequiredResult is the result a server returns, instead of the final
// result of tools/call, prompts/get or resources/read, when it needs more
// input from the client first (2026-07-28). The client fulfils the
// InputRequests and retries the request with the responses and the
// RequestState. [CallToolResult], [GetPromptResult] and
// [ReadResourceResult] carry the same fields, so a client can decode
// either kind of result into them and look at ResultType.
type InputRequiredResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "input_required".
	ResultType string `json:"resultType,omitempty"`
	// InputRequests are the requests the client must fulfil, keyed by
	// server-assigned identifiers.
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque server state the client must echo on retry.
	RequestState string `json:"requestState,omitempty"`
}

// InputRequest is one request inside an [InputRequiredResult]: a
// sampling/createMessage, elicitation/create or roots/list request without
// a JSON-RPC ID (2026-07-28).
type InputRequest struct {
	// Method is MethodCreateMessage, MethodElicit or MethodListRoots.
	Method string `json:"method"`
	// Params are the request's params. After decoding they are a
	// *CreateMessageParams, *ElicitParams or *ListRootsParams for those
	// methods and a json.RawMessage for any other.
	Params any `json:"params,omitzero"`
}

// UnmarshalJSON decodes an input request, decoding the params of known
// methods into their params type.
func (r *InputRequest) UnmarshalJSON(data []byte) error {
	var w struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	out := InputRequest{Method: w.Method}
	if w.Params != nil {
		var p any
		switch w.Method {
		case MethodCreateMessage:
			p = new(CreateMessageParams)
		case MethodElicit:
			p = new(ElicitParams)
		case MethodListRoots:
			p = new(ListRootsParams)
		default:
			out.Params = w.Params
		}
		if p != nil {
			if err := strictjson.UnmarshalTrusted(w.Params, p); err != nil {
				return err
			}
			out.Params = p
		}
	}
	*r = out
	return nil
}

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

// ---- Prompts ----

// Prompt describes a prompt template the server offers.
type Prompt struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// Name is the programmatic name of the prompt.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the prompt.
	Description string `json:"description,omitempty"`
	// Arguments are the arguments the prompt accepts.
	Arguments []*PromptArgument `json:"arguments,omitempty"`
	// Icons are icons of the prompt (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// PromptArgument describes an argument of a prompt.
type PromptArgument struct {
	// Name is the programmatic name of the argument.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the argument.
	Description string `json:"description,omitempty"`
	// Required reports whether the argument must be given.
	Required bool `json:"required,omitzero"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	// Role is the sender of the message.
	Role Role `json:"role"`
	// Content is the content of the message.
	Content *Content `json:"content"`
}

// ListPromptsParams are the params of prompts/list.
type ListPromptsParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListPromptsResult is the result of prompts/list.
type ListPromptsResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Prompts is one page of prompts.
	Prompts []*Prompt `json:"prompts"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// GetPromptParams are the params of prompts/get.
type GetPromptParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Name is the name of the prompt.
	Name string `json:"name"`
	// Arguments are the values of the prompt's arguments.
	Arguments map[string]string `json:"arguments,omitempty"`
	// InputResponses answer the InputRequests of a previous
	// InputRequiredResult (2026-07-28).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// RequestState echoes the RequestState of a previous
	// InputRequiredResult (2026-07-28).
	RequestState string `json:"requestState,omitempty"`
}

// GetPromptResult is the result of prompts/get. In 2026-07-28 it may
// instead be an input-required result; see [CallToolResult].
type GetPromptResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" or "input_required" in 2026-07-28 and empty
	// before.
	ResultType string `json:"resultType,omitempty"`
	// Description describes the rendered prompt.
	Description string `json:"description,omitempty"`
	// Messages are the messages of the rendered prompt.
	Messages []*PromptMessage `json:"messages"`
	// InputRequests are the requests the client must fulfil before retrying
	// (2026-07-28, input-required results only).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque state to echo on retry (2026-07-28,
	// input-required results only).
	RequestState string `json:"requestState,omitempty"`
}

// PromptListChangedParams are the params of
// notifications/prompts/list_changed.
type PromptListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// ---- Resources ----

// Resource describes a resource the server offers.
type Resource struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource.
	URI string `json:"uri"`
	// Name is the programmatic name of the resource.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the resource.
	Description string `json:"description,omitempty"`
	// MIMEType is the media type of the resource, if known.
	MIMEType string `json:"mimeType,omitempty"`
	// Size is the size of the resource in bytes, if known.
	Size *int64 `json:"size,omitzero"`
	// Annotations are hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Icons are icons of the resource (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// ResourceTemplate describes a family of resources by a URI template
// (RFC 6570).
type ResourceTemplate struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URITemplate is the URI template of the resources.
	URITemplate string `json:"uriTemplate"`
	// Name is the programmatic name of the template.
	Name string `json:"name"`
	// Title is a display name (2025-06-18).
	Title string `json:"title,omitempty"`
	// Description describes the template.
	Description string `json:"description,omitempty"`
	// MIMEType is the media type of all matching resources, if they share
	// one.
	MIMEType string `json:"mimeType,omitempty"`
	// Annotations are hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Icons are icons of the template (2025-11-25).
	Icons []Icon `json:"icons,omitempty"`
}

// ListResourcesParams are the params of resources/list.
type ListResourcesParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListResourcesResult is the result of resources/list.
type ListResourcesResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Resources is one page of resources.
	Resources []*Resource `json:"resources"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// ListResourceTemplatesParams are the params of resources/templates/list.
type ListResourceTemplatesParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListResourceTemplatesResult is the result of resources/templates/list.
type ListResourceTemplatesResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// ResourceTemplates is one page of resource templates.
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
}

// ReadResourceParams are the params of resources/read.
type ReadResourceParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource.
	URI string `json:"uri"`
	// InputResponses answer the InputRequests of a previous
	// InputRequiredResult (2026-07-28).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// RequestState echoes the RequestState of a previous
	// InputRequiredResult (2026-07-28).
	RequestState string `json:"requestState,omitempty"`
}

// ReadResourceResult is the result of resources/read. In 2026-07-28 it may
// instead be an input-required result; see [CallToolResult].
type ReadResourceResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" or "input_required" in 2026-07-28 and empty
	// before.
	ResultType string `json:"resultType,omitempty"`
	// Contents are the contents of the resource (several for a directory,
	// for example).
	Contents []*ResourceContents `json:"contents"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope is CacheScopePublic or CacheScopePrivate (2026-07-28).
	CacheScope string `json:"cacheScope,omitempty"`
	// InputRequests are the requests the client must fulfil before retrying
	// (2026-07-28, input-required results only).
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is opaque state to echo on retry (2026-07-28,
	// input-required results only).
	RequestState string `json:"requestState,omitempty"`
}

// SubscribeParams are the params of resources/subscribe (2024-11-05 to
// 2025-11-25).
type SubscribeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource to watch.
	URI string `json:"uri"`
}

// UnsubscribeParams are the params of resources/unsubscribe (2024-11-05 to
// 2025-11-25).
type UnsubscribeParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource to stop watching.
	URI string `json:"uri"`
}

// ResourceUpdatedParams are the params of notifications/resources/updated.
type ResourceUpdatedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the resource that changed.
	URI string `json:"uri"`
}

// ResourceListChangedParams are the params of
// notifications/resources/list_changed.
type ResourceListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// ---- Subscriptions (2026-07-28) ----

// SubscriptionFilter selects the notifications a subscriptions/listen
// stream delivers (2026-07-28).
type SubscriptionFilter struct {
	// ToolsListChanged asks for notifications/tools/list_changed.
	ToolsListChanged bool `json:"toolsListChanged,omitzero"`
	// PromptsListChanged asks for notifications/prompts/list_changed.
	PromptsListChanged bool `json:"promptsListChanged,omitzero"`
	// ResourcesListChanged asks for notifications/resources/list_changed.
	ResourcesListChanged bool `json:"resourcesListChanged,omitzero"`
	// ResourceSubscriptions lists resource URIs to receive
	// notifications/resources/updated for.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// SubscriptionsListenParams are the params of subscriptions/listen
// (2026-07-28).
type SubscriptionsListenParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Notifications selects the notifications to receive.
	Notifications SubscriptionFilter `json:"notifications"`
}

// SubscriptionsListenResult is the result of subscriptions/listen, sent
// when the server ends the subscription gracefully; Meta.SubscriptionID
// names the subscription (2026-07-28).
type SubscriptionsListenResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete".
	ResultType string `json:"resultType,omitempty"`
}

// SubscriptionsAcknowledgedParams are the params of
// notifications/subscriptions/acknowledged, the first message of a
// subscription (2026-07-28).
type SubscriptionsAcknowledgedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Notifications is the part of the requested filter the server honors.
	Notifications SubscriptionFilter `json:"notifications"`
}

// ---- Completion ----

// Values of [CompleteReference.Type].
const (
	// ReferenceTypePrompt refers to a prompt by name.
	ReferenceTypePrompt = "ref/prompt"
	// ReferenceTypeResource refers to a resource template by URI template.
	ReferenceTypeResource = "ref/resource"
)

// CompleteReference names what a completion request is about: a prompt
// (Type "ref/prompt", Name and Title) or a resource template (Type
// "ref/resource", URI).
type CompleteReference struct {
	// Type is ReferenceTypePrompt or ReferenceTypeResource.
	Type string `json:"type"`
	// Name is the name of the prompt.
	Name string `json:"name,omitempty"`
	// Title is the display name of the prompt (2025-06-18).
	Title string `json:"title,omitempty"`
	// URI is the URI template of the resource template.
	URI string `json:"uri,omitempty"`
}

// CompleteArgument is the argument being completed.
type CompleteArgument struct {
	// Name is the name of the argument.
	Name string `json:"name"`
	// Value is the partial value to complete.
	Value string `json:"value"`
}

// CompleteContext is additional context for a completion (2025-06-18).
type CompleteContext struct {
	// Arguments are the values of arguments already resolved.
	Arguments map[string]string `json:"arguments,omitempty"`
}

// CompleteParams are the params of completion/complete (2025-03-26 as a
// capability; the method exists since 2024-11-05).
type CompleteParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Ref names the prompt or resource template.
	Ref *CompleteReference `json:"ref"`
	// Argument is the argument to complete.
	Argument CompleteArgument `json:"argument"`
	// Context holds already resolved arguments (2025-06-18).
	Context *CompleteContext `json:"context,omitzero"`
}

// CompletionResultDetails are the completion values of a [CompleteResult].
type CompletionResultDetails struct {
	// Values are the completions, at most 100.
	Values []string `json:"values"`
	// Total is the total number of completions available, if known.
	Total int `json:"total,omitzero"`
	// HasMore reports that there are more completions than Values.
	HasMore bool `json:"hasMore,omitzero"`
}

// CompleteResult is the result of completion/complete.
type CompleteResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" in 2026-07-28 and empty before.
	ResultType string `json:"resultType,omitempty"`
	// Completion holds the completion values.
	Completion CompletionResultDetails `json:"completion"`
}

// ---- Logging ----

// SetLoggingLevelParams are the params of logging/setLevel (2024-11-05 to
// 2025-11-25).
type SetLoggingLevelParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the minimum level of messages the client wants.
	Level LoggingLevel `json:"level"`
}

// LoggingMessageParams are the params of notifications/message, a log
// message from server to client.
type LoggingMessageParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Level is the severity of the message.
	Level LoggingLevel `json:"level"`
	// Logger is the name of the logger, if any.
	Logger string `json:"logger,omitempty"`
	// Data is the message: any JSON value.
	Data any `json:"data"`
}

// ---- Cancellation and progress ----

// CancelledParams are the params of notifications/cancelled.
type CancelledParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// RequestID is the JSON-RPC ID of the request to cancel: a string or an
	// integer; after decoding a string or an int64. It is optional only for
	// tasks (2025-11-25).
	RequestID any `json:"requestId,omitzero"`
	// Reason describes why the request was cancelled.
	Reason string `json:"reason,omitempty"`
}

// UnmarshalJSON decodes the params of notifications/cancelled; a numeric
// request ID becomes an int64.
func (p *CancelledParams) UnmarshalJSON(data []byte) error {
	type plain CancelledParams
	var w struct {
		plain
		RequestID json.RawMessage `json:"requestId,omitzero"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	id, err := decodeID("requestId", w.RequestID)
	if err != nil {
		return err
	}
	*p = CancelledParams(w.plain)
	p.RequestID = id
	return nil
}

// ProgressNotificationParams are the params of notifications/progress.
type ProgressNotificationParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ProgressToken is the token from the request's _meta: a string or an
	// integer; after decoding a string or an int64.
	ProgressToken any `json:"progressToken"`
	// Progress is the progress so far; it increases with every
	// notification.
	Progress float64 `json:"progress"`
	// Total is the total amount of work, if known.
	Total float64 `json:"total,omitzero"`
	// Message describes the current progress (2025-03-26).
	Message string `json:"message,omitempty"`
}

// UnmarshalJSON decodes the params of notifications/progress; a numeric
// progress token becomes an int64.
func (p *ProgressNotificationParams) UnmarshalJSON(data []byte) error {
	type plain ProgressNotificationParams
	var w struct {
		plain
		ProgressToken json.RawMessage `json:"progressToken"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	token, err := decodeID(MetaKeyProgressToken, w.ProgressToken)
	if err != nil {
		return err
	}
	*p = ProgressNotificationParams(w.plain)
	p.ProgressToken = token
	return nil
}

// ---- Roots ----

// Root is a directory or file the client allows the server to work on.
type Root struct {
	// Meta is the _meta member (2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
	// URI is the URI of the root; a file:// URI.
	URI string `json:"uri"`
	// Name is a display name.
	Name string `json:"name,omitempty"`
}

// ListRootsParams are the params of roots/list.
type ListRootsParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// ListRootsResult is the result of roots/list.
type ListRootsResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused: this result travels from client to server, or
	// inside inputResponses in 2026-07-28.
	ResultType string `json:"resultType,omitempty"`
	// Roots are the client's roots.
	Roots []*Root `json:"roots"`
}

// RootsListChangedParams are the params of notifications/roots/list_changed
// (2024-11-05 to 2025-11-25).
type RootsListChangedParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
}

// ---- Sampling ----

// Values of [CreateMessageParams.IncludeContext].
const (
	// IncludeContextNone includes no MCP context.
	IncludeContextNone = "none"
	// IncludeContextThisServer includes context from the requesting server
	// (deprecated since 2025-11-25).
	IncludeContextThisServer = "thisServer"
	// IncludeContextAllServers includes context from all servers (deprecated
	// since 2025-11-25).
	IncludeContextAllServers = "allServers"
)

// Common values of [CreateMessageResult.StopReason]; others are allowed.
const (
	// StopReasonEndTurn means the model ended its turn.
	StopReasonEndTurn = "endTurn"
	// StopReasonStopSequence means the model produced a stop sequence.
	StopReasonStopSequence = "stopSequence"
	// StopReasonMaxTokens means the model reached MaxTokens.
	StopReasonMaxTokens = "maxTokens"
	// StopReasonToolUse means the model wants to call tools (2025-11-25).
	StopReasonToolUse = "toolUse"
)

// Values of [ToolChoice.Mode] (2025-11-25).
const (
	// ToolChoiceAuto lets the model decide whether to call tools.
	ToolChoiceAuto = "auto"
	// ToolChoiceRequired makes the model call at least one tool.
	ToolChoiceRequired = "required"
	// ToolChoiceNone forbids tool calls.
	ToolChoiceNone = "none"
)

// SamplingMessage is one message of a sampling conversation.
//
// Its content is one block or, since 2025-11-25, a list of blocks. Content
// holds the blocks either way. A message decoded from a list encodes as a
// list again; otherwise a message with exactly one block encodes as a single
// object, which every version accepts, and any other as a list.
type SamplingMessage struct {
	// Meta is the _meta member (2025-11-25).
	Meta Meta
	// Role is the sender of the message.
	Role Role
	// Content holds the content blocks: text, image, audio, and since
	// 2025-11-25 tool_use and tool_result.
	Content []*Content

	contentList bool // decoded from a JSON array
}

type samplingMessageWire struct {
	Meta    Meta            `json:"_meta,omitzero"`
	Role    Role            `json:"role"`
	Content samplingContent `json:"content"`
}

// MarshalJSON encodes m; see [SamplingMessage] for the form of the content.
func (m SamplingMessage) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal(samplingMessageWire{m.Meta, m.Role, samplingContent{m.Content, m.contentList}})
}

// UnmarshalJSON decodes a sampling message whose content is one block or a
// list of blocks.
func (m *SamplingMessage) UnmarshalJSON(data []byte) error {
	var w samplingMessageWire
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*m = SamplingMessage{Meta: w.Meta, Role: w.Role, Content: w.Content.blocks, contentList: w.Content.list}
	return nil
}

// ModelPreferences are the server's preferences for model selection in
// sampling; the client may ignore them. Priorities range from 0 to 1.
type ModelPreferences struct {
	// Hints suggest models or model families, in order of preference.
	Hints []*ModelHint `json:"hints,omitempty"`
	// CostPriority is how much to prioritize low cost.
	CostPriority *float64 `json:"costPriority,omitzero"`
	// SpeedPriority is how much to prioritize low latency.
	SpeedPriority *float64 `json:"speedPriority,omitzero"`
	// IntelligencePriority is how much to prioritize capability.
	IntelligencePriority *float64 `json:"intelligencePriority,omitzero"`
}

// ModelHint suggests a model by (a substring of) its name.
type ModelHint struct {
	// Name is a model name or part of one, such as "claude-3-5-sonnet" or
	// "sonnet".
	Name string `json:"name,omitempty"`
}

// ToolChoice controls how the model uses tools in sampling (2025-11-25).
type ToolChoice struct {
	// Mode is ToolChoiceAuto, ToolChoiceRequired or ToolChoiceNone.
	Mode string `json:"mode,omitempty"`
}

// CreateMessageParams are the params of sampling/createMessage, a request
// to sample an LLM through the client.
type CreateMessageParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Messages is the conversation to continue.
	Messages []*SamplingMessage `json:"messages"`
	// ModelPreferences guide model selection.
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitzero"`
	// SystemPrompt is an optional system prompt.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// IncludeContext asks for MCP context; see the IncludeContext constants.
	IncludeContext string `json:"includeContext,omitempty"`
	// Temperature is the sampling temperature, if set.
	Temperature *float64 `json:"temperature,omitzero"`
	// MaxTokens is the maximum number of tokens to sample.
	MaxTokens int64 `json:"maxTokens"`
	// StopSequences are sequences that stop sampling.
	StopSequences []string `json:"stopSequences,omitempty"`
	// Metadata is provider-specific metadata, a JSON object.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Tools are tools the model may call (2025-11-25).
	Tools []*Tool `json:"tools,omitempty"`
	// ToolChoice controls tool use (2025-11-25).
	ToolChoice *ToolChoice `json:"toolChoice,omitzero"`
	// Task asks the client to run the request as a task (2025-11-25).
	Task *TaskMetadata `json:"task,omitzero"`
}

// CreateMessageResult is the result of sampling/createMessage. Its content
// is one block or (2025-11-25) a list, encoded as for [SamplingMessage].
type CreateMessageResult struct {
	// Meta is the _meta member.
	Meta Meta
	// ResultType is unused: this result travels from client to server, or
	// inside inputResponses in 2026-07-28.
	ResultType string
	// Role is the role of the generated message, normally RoleAssistant.
	Role Role
	// Content holds the generated content blocks.
	Content []*Content
	// Model is the name of the model that generated the message.
	Model string
	// StopReason says why sampling stopped; see the StopReason constants.
	StopReason string

	contentList bool // decoded from a JSON array
}

type createMessageResultWire struct {
	Meta       Meta            `json:"_meta,omitzero"`
	ResultType string          `json:"resultType,omitempty"`
	Role       Role            `json:"role"`
	Content    samplingContent `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
}

// MarshalJSON encodes r; see [SamplingMessage] for the form of the content.
func (r CreateMessageResult) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal(createMessageResultWire{
		r.Meta, r.ResultType, r.Role, samplingContent{r.Content, r.contentList}, r.Model, r.StopReason,
	})
}

// UnmarshalJSON decodes a sampling result whose content is one block or a
// list of blocks.
func (r *CreateMessageResult) UnmarshalJSON(data []byte) error {
	var w createMessageResultWire
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*r = CreateMessageResult{
		Meta: w.Meta, ResultType: w.ResultType, Role: w.Role, Content: w.Content.blocks,
		Model: w.Model, StopReason: w.StopReason, contentList: w.Content.list,
	}
	return nil
}

// ---- Elicitation ----

// Values of [ElicitParams.Mode] (2025-11-25).
const (
	// ElicitationModeForm collects structured data through a form (the
	// default).
	ElicitationModeForm = "form"
	// ElicitationModeURL sends the user to a URL for a sensitive
	// interaction.
	ElicitationModeURL = "url"
)

// Values of [ElicitResult.Action].
const (
	// ElicitActionAccept means the user submitted the requested data.
	ElicitActionAccept = "accept"
	// ElicitActionDecline means the user declined.
	ElicitActionDecline = "decline"
	// ElicitActionCancel means the user dismissed the request.
	ElicitActionCancel = "cancel"
)

// ElicitParams are the params of elicitation/create, a request to collect
// information from the user through the client (2025-06-18). One struct
// covers both modes: form mode (Mode empty or "form") uses RequestedSchema;
// URL mode (Mode "url", 2025-11-25) uses URL and, in 2025-11-25 only,
// ElicitationID.
type ElicitParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Mode is ElicitationModeForm, ElicitationModeURL, or empty for form
	// mode (2025-11-25).
	Mode string `json:"mode,omitempty"`
	// Message tells the user what is being asked and why.
	Message string `json:"message"`
	// RequestedSchema is the schema of the form (form mode).
	RequestedSchema *ElicitationSchema `json:"requestedSchema,omitzero"`
	// URL is the URL to send the user to (URL mode).
	URL string `json:"url,omitempty"`
	// ElicitationID identifies a URL-mode elicitation (2025-11-25 only).
	ElicitationID string `json:"elicitationId,omitempty"`
	// Task asks the client to run the request as a task (2025-11-25).
	Task *TaskMetadata `json:"task,omitzero"`
}

// ElicitResult is the result of elicitation/create (2025-06-18).
type ElicitResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused: this result travels from client to server, or
	// inside inputResponses in 2026-07-28.
	ResultType string `json:"resultType,omitempty"`
	// Action is ElicitActionAccept, ElicitActionDecline or
	// ElicitActionCancel.
	Action string `json:"action"`
	// Content is the submitted data when Action is accept in form mode:
	// strings, numbers, booleans and (2025-11-25) lists of strings.
	Content map[string]any `json:"content,omitempty"`
}

// ElicitationCompleteParams are the params of
// notifications/elicitation/complete (2025-11-25 only).
type ElicitationCompleteParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ElicitationID identifies the URL-mode elicitation that completed.
	ElicitationID string `json:"elicitationId"`
}

// ---- Tasks (2025-11-25) ----

// TaskStatus is the state of a task (2025-11-25).
type TaskStatus string

// Task states. Completed, failed and cancelled are terminal.
const (
	// TaskStatusWorking means the request is being processed.
	TaskStatusWorking TaskStatus = "working"
	// TaskStatusInputRequired means the receiver needs input from the
	// requestor.
	TaskStatusInputRequired TaskStatus = "input_required"
	// TaskStatusCompleted means the request finished successfully.
	TaskStatusCompleted TaskStatus = "completed"
	// TaskStatusFailed means the request failed.
	TaskStatusFailed TaskStatus = "failed"
	// TaskStatusCancelled means the request was cancelled.
	TaskStatusCancelled TaskStatus = "cancelled"
)

// TaskMetadata asks the receiver to run a request as a task; it is the
// task member of task-augmented params (2025-11-25).
type TaskMetadata struct {
	// TTL is how long, in milliseconds, to keep the task after creation.
	TTL *int64 `json:"ttl,omitzero"`
}

// Task is the state of a task (2025-11-25).
type Task struct {
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is how long, in milliseconds, the task is kept after creation; nil
	// (null on the wire) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// CreateTaskResult is the result of a task-augmented request: the created
// task instead of the request's own result (2025-11-25).
type CreateTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// Task is the created task.
	Task *Task `json:"task"`
}

// GetTaskParams are the params of tasks/get (2025-11-25).
type GetTaskParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// GetTaskResult is the result of tasks/get: the task's state (2025-11-25).
type GetTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// CancelTaskParams are the params of tasks/cancel (2025-11-25).
type CancelTaskParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// CancelTaskResult is the result of tasks/cancel: the task's state after
// cancellation (2025-11-25).
type CancelTaskResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// GetTaskPayloadParams are the params of tasks/result (2025-11-25).
type GetTaskPayloadParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
}

// GetTaskPayloadResult is the result of tasks/result: the result the
// original request would have returned, such as a [CallToolResult]
// (2025-11-25). Fields holds every member other than _meta and resultType
// as raw JSON; Decode turns the whole result into a typed one.
type GetTaskPayloadResult struct {
	// Meta is the _meta member.
	Meta Meta
	// ResultType is the resultType member, if any.
	ResultType string
	// Fields holds the other members, keyed by name.
	Fields map[string]json.RawMessage
}

type getTaskPayloadResultWire struct {
	Meta       Meta                       `json:"_meta,omitzero"`
	ResultType string                     `json:"resultType,omitempty"`
	Fields     map[string]json.RawMessage `json:",inline"`
}

// MarshalJSON encodes r as one JSON object.
func (r GetTaskPayloadResult) MarshalJSON() ([]byte, error) {
	return strictjson.Marshal(getTaskPayloadResultWire(r))
}

// UnmarshalJSON decodes any result object into r.
func (r *GetTaskPayloadResult) UnmarshalJSON(data []byte) error {
	var w getTaskPayloadResultWire
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	*r = GetTaskPayloadResult(w)
	return nil
}

// Decode decodes the whole result into v, a pointer to a result type such
// as *CallToolResult.
func (r *GetTaskPayloadResult) Decode(v any) error {
	data, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	return strictjson.UnmarshalTrusted(data, v)
}

// ListTasksParams are the params of tasks/list (2025-11-25).
type ListTasksParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page, or empty for the first.
	Cursor string `json:"cursor,omitempty"`
}

// ListTasksResult is the result of tasks/list (2025-11-25).
type ListTasksResult struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused before 2026-07-28 and is normally empty here.
	ResultType string `json:"resultType,omitempty"`
	// Tasks is one page of tasks.
	Tasks []*Task `json:"tasks"`
	// NextCursor is the cursor of the next page, or empty after the last.
	NextCursor string `json:"nextCursor,omitempty"`
}

// TaskStatusParams are the params of notifications/tasks/status: the
// task's new state (2025-11-25).
type TaskStatusParams struct {
	// Meta is the _meta member.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the current state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, as an ISO 8601 timestamp.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, as an ISO 8601 timestamp.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is the retention in milliseconds; nil (null) means without limit.
	TTL *int64 `json:"ttl"`
	// PollInterval is the suggested polling interval in milliseconds.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}
