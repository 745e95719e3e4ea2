package mcp

import (
	"github.com/gomcp/sdk/internal/strictjson"
)

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
