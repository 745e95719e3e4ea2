package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gomcp/sdk/internal/strictjson"
)

// Content types: the values of [Content.Type].
const (
	// ContentTypeText is plain text content.
	ContentTypeText = "text"
	// ContentTypeImage is base64-encoded image content.
	ContentTypeImage = "image"
	// ContentTypeAudio is base64-encoded audio content (2025-03-26).
	ContentTypeAudio = "audio"
	// ContentTypeResourceLink is a link to a resource (2025-06-18).
	ContentTypeResourceLink = "resource_link"
	// ContentTypeResource is a resource embedded in the content.
	ContentTypeResource = "resource"
	// ContentTypeToolUse is a tool call made by a model during sampling
	// (2025-11-25).
	ContentTypeToolUse = "tool_use"
	// ContentTypeToolResult is the result of a tool call fed back to a model
	// during sampling (2025-11-25).
	ContentTypeToolResult = "tool_result"
)

// Content is one block of content in a tool result, prompt message or
// sampling message. It is a distinguished union: Type says which kind of
// content it is, and only the fields of that kind are encoded.
//
//   - "text": Text.
//   - "image", "audio": Data (raw bytes; base64 on the wire) and MIMEType.
//   - "resource_link": URI, Name, Title, Description, MIMEType, Size, Icons.
//   - "resource": Resource.
//   - "tool_use": ID, Name, Input.
//   - "tool_result": ToolUseID, Content, StructuredContent, IsError.
//
// Annotations apply to every kind except tool_use and tool_result; Meta
// applies to every kind. Decoding rejects an unknown or missing type.
type Content struct {
	// Type is the kind of content; see the ContentType constants.
	Type string
	// Text is the text of "text" content.
	Text string
	// MIMEType is the media type of "image", "audio" and "resource_link"
	// content.
	MIMEType string
	// Data holds the raw bytes of "image" and "audio" content.
	Data []byte
	// Resource is the resource embedded in "resource" content.
	Resource *ResourceContents
	// URI is the resource URI of "resource_link" content.
	URI string
	// Name is the resource name of "resource_link" content or the tool name
	// of "tool_use" content.
	Name string
	// Title is the display name of "resource_link" content.
	Title string
	// Description describes the resource of "resource_link" content.
	Description string
	// Size is the size in bytes of the resource of "resource_link" content,
	// if known.
	Size *int64
	// Icons are icons of the resource of "resource_link" content.
	Icons []Icon
	// ID identifies the tool call of "tool_use" content.
	ID string
	// Input holds the tool arguments of "tool_use" content, a JSON object.
	// After decoding it is a json.RawMessage with the bytes received.
	Input any
	// ToolUseID is the ID of the "tool_use" content a "tool_result" answers.
	ToolUseID string
	// Content is the unstructured result of "tool_result" content.
	Content []*Content
	// StructuredContent is the structured result of "tool_result" content.
	// After decoding it is a json.RawMessage with the bytes received.
	StructuredContent any
	// IsError reports whether the tool call of "tool_result" content failed.
	IsError bool
	// Annotations tell the client how to use or display the content.
	Annotations *Annotations
	// Meta is the _meta member.
	Meta Meta
}

// NewTextContent returns text content.
func NewTextContent(text string) *Content {
	return &Content{Type: ContentTypeText, Text: text}
}

// NewImageContent returns image content with the given raw bytes and media
// type.
func NewImageContent(data []byte, mimeType string) *Content {
	return &Content{Type: ContentTypeImage, Data: data, MIMEType: mimeType}
}

// NewAudioContent returns audio content with the given raw bytes and media
// type (2025-03-26).
func NewAudioContent(data []byte, mimeType string) *Content {
	return &Content{Type: ContentTypeAudio, Data: data, MIMEType: mimeType}
}

// NewResourceLink returns a link to the resource with the given URI and name
// (2025-06-18). Set the other resource fields on the result as needed.
func NewResourceLink(uri, name string) *Content {
	return &Content{Type: ContentTypeResourceLink, URI: uri, Name: name}
}

// NewEmbeddedResource returns content that embeds the given resource
// contents.
func NewEmbeddedResource(r *ResourceContents) *Content {
	return &Content{Type: ContentTypeResource, Resource: r}
}

// NewToolUseContent returns a tool call made by a model: the call's id, the
// tool's name and its arguments, a JSON object (2025-11-25).
func NewToolUseContent(id, name string, input any) *Content {
	return &Content{Type: ContentTypeToolUse, ID: id, Name: name, Input: input}
}

// NewToolResultContent returns the result of the tool call with the given
// id, for feeding back to a model (2025-11-25).
func NewToolResultContent(toolUseID string, content ...*Content) *Content {
	if content == nil {
		content = []*Content{}
	}
	return &Content{Type: ContentTypeToolResult, ToolUseID: toolUseID, Content: content}
}

// Wire forms of each kind of content, used by MarshalJSON.
type (
	textContentWire struct {
		Type        string       `json:"type"`
		Text        string       `json:"text"`
		Annotations *Annotations `json:"annotations,omitzero"`
		Meta        Meta         `json:"_meta,omitzero"`
	}
	mediaContentWire struct {
		Type        string       `json:"type"`
		Data        string       `json:"data"`
		MIMEType    string       `json:"mimeType"`
		Annotations *Annotations `json:"annotations,omitzero"`
		Meta        Meta         `json:"_meta,omitzero"`
	}
	resourceLinkWire struct {
		Type        string       `json:"type"`
		URI         string       `json:"uri"`
		Name        string       `json:"name"`
		Title       string       `json:"title,omitempty"`
		Description string       `json:"description,omitempty"`
		MIMEType    string       `json:"mimeType,omitempty"`
		Size        *int64       `json:"size,omitzero"`
		Icons       []Icon       `json:"icons,omitempty"`
		Annotations *Annotations `json:"annotations,omitzero"`
		Meta        Meta         `json:"_meta,omitzero"`
	}
	embeddedResourceWire struct {
		Type        string            `json:"type"`
		Resource    *ResourceContents `json:"resource"`
		Annotations *Annotations      `json:"annotations,omitzero"`
		Meta        Meta              `json:"_meta,omitzero"`
	}
	toolUseWire struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Name  string `json:"name"`
		Input any    `json:"input"`
		Meta  Meta   `json:"_meta,omitzero"`
	}
	toolResultWire struct {
		Type              string     `json:"type"`
		ToolUseID         string     `json:"toolUseId"`
		Content           []*Content `json:"content"`
		StructuredContent any        `json:"structuredContent,omitzero"`
		IsError           bool       `json:"isError,omitzero"`
		Meta              Meta       `json:"_meta,omitzero"`
	}
)

// MarshalJSON encodes c with exactly the members its Type allows. It
// reports an error for an unknown type and for "resource" content without
// a Resource.
func (c Content) MarshalJSON() ([]byte, error) {
	var w any
	switch c.Type {
	case ContentTypeText:
		if c.Annotations == nil && c.Meta.IsZero() {
			// The common case, written directly: no wire struct to box.
			b := append(make([]byte, 0, len(c.Text)+28), `{"type":"text","text":`...)
			b, err := jsontext.AppendQuote(b, c.Text)
			if err != nil {
				return nil, fmt.Errorf("mcp: text content: %w", err)
			}
			return append(b, '}'), nil
		}
		w = textContentWire{c.Type, c.Text, c.Annotations, c.Meta}
	case ContentTypeImage, ContentTypeAudio:
		w = mediaContentWire{c.Type, base64.StdEncoding.EncodeToString(c.Data), c.MIMEType, c.Annotations, c.Meta}
	case ContentTypeResourceLink:
		w = resourceLinkWire{c.Type, c.URI, c.Name, c.Title, c.Description, c.MIMEType, c.Size, c.Icons, c.Annotations, c.Meta}
	case ContentTypeResource:
		if c.Resource == nil {
			return nil, errors.New(`mcp: content of type "resource" has no Resource`)
		}
		w = embeddedResourceWire{c.Type, c.Resource, c.Annotations, c.Meta}
	case ContentTypeToolUse:
		input := c.Input
		if input == nil {
			input = struct{}{}
		}
		w = toolUseWire{c.Type, c.ID, c.Name, input, c.Meta}
	case ContentTypeToolResult:
		content := c.Content
		if content == nil {
			content = []*Content{}
		}
		w = toolResultWire{c.Type, c.ToolUseID, content, c.StructuredContent, c.IsError, c.Meta}
	default:
		return nil, unknownContentType(c.Type)
	}
	return strictjson.Marshal(w)
}

func unknownContentType(t string) error {
	if t == "" {
		return errors.New("mcp: content has no type")
	}
	return fmt.Errorf("mcp: unknown content type %q", t)
}

// contentWire is the union of all content members, used for decoding.
// Nested content is kept raw so that decoding can bound its nesting.
type contentWire struct {
	Type              string            `json:"type"`
	Text              *string           `json:"text"`
	MIMEType          string            `json:"mimeType"`
	Data              base64Data        `json:"data"`
	Resource          *ResourceContents `json:"resource"`
	URI               string            `json:"uri"`
	Name              string            `json:"name"`
	Title             string            `json:"title"`
	Description       string            `json:"description"`
	Size              *int64            `json:"size"`
	Icons             []Icon            `json:"icons"`
	ID                string            `json:"id"`
	Input             json.RawMessage   `json:"input"`
	ToolUseID         string            `json:"toolUseId"`
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
	Annotations       *Annotations      `json:"annotations"`
	Meta              Meta              `json:"_meta"`
}

// UnmarshalJSON decodes one content object into c, keeping only the members
// its type allows. It reports an error for an unknown or missing type, for
// invalid base64 data and for "resource" content without a resource.
// The content of a "tool_result" must itself be text, image, audio,
// resource_link or resource content.
func (c *Content) UnmarshalJSON(data []byte) error {
	return c.decode(data, true)
}

func (c *Content) decode(data []byte, allowToolContent bool) error {
	var w contentWire
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	out := Content{Type: w.Type, Meta: w.Meta}
	switch w.Type {
	case ContentTypeText:
		if w.Text != nil {
			out.Text = *w.Text
		}
		out.Annotations = w.Annotations
	case ContentTypeImage, ContentTypeAudio:
		if w.Data.set {
			out.Data = w.Data.b
		}
		out.MIMEType, out.Annotations = w.MIMEType, w.Annotations
	case ContentTypeResourceLink:
		out.URI, out.Name, out.Title, out.Description = w.URI, w.Name, w.Title, w.Description
		out.MIMEType, out.Size, out.Icons, out.Annotations = w.MIMEType, w.Size, w.Icons, w.Annotations
	case ContentTypeResource:
		if w.Resource == nil {
			return errors.New(`mcp: content of type "resource" has no "resource" member`)
		}
		out.Resource, out.Annotations = w.Resource, w.Annotations
	case ContentTypeToolUse, ContentTypeToolResult:
		if !allowToolContent {
			return fmt.Errorf("mcp: %s content is not allowed inside tool_result content", w.Type)
		}
		if err := out.decodeToolContent(&w); err != nil {
			return err
		}
	default:
		return unknownContentType(w.Type)
	}
	*c = out
	return nil
}

// decodeToolContent fills the tool_use or tool_result fields of c from w.
func (c *Content) decodeToolContent(w *contentWire) error {
	if w.Type == ContentTypeToolUse {
		c.ID, c.Name = w.ID, w.Name
		if w.Input != nil {
			c.Input = w.Input
		}
		return nil
	}
	c.ToolUseID, c.IsError = w.ToolUseID, w.IsError
	if w.StructuredContent != nil {
		c.StructuredContent = w.StructuredContent
	}
	c.Content = make([]*Content, len(w.Content))
	for i, raw := range w.Content {
		c.Content[i] = new(Content)
		if err := c.Content[i].decode(raw, false); err != nil {
			return err
		}
	}
	return nil
}

// Annotations are hints to the client about how to use or display an
// object (2024-11-05; lastModified since 2025-06-18).
type Annotations struct {
	// Audience lists who the object is intended for.
	Audience []Role `json:"audience,omitempty"`
	// Priority is the importance of the object, from 0 (least) to 1 (most).
	Priority *float64 `json:"priority,omitzero"`
	// LastModified is when the object was last modified, as an ISO 8601
	// timestamp (2025-06-18).
	LastModified string `json:"lastModified,omitempty"`
}

// ResourceContents is the contents of a resource, in a read result or
// embedded in content. It is a distinguished union of text and blob
// contents: on the wire it has "blob" when Blob is non-nil and "text"
// otherwise.
type ResourceContents struct {
	// URI is the URI of the resource.
	URI string
	// MIMEType is the media type of the resource, if known.
	MIMEType string
	// Text is the text of a text resource.
	Text string
	// Blob holds the raw bytes of a binary resource (base64 on the wire).
	Blob []byte
	// Meta is the _meta member (2025-06-18).
	Meta Meta
}

// NewTextResourceContents returns text contents of the resource with the
// given URI.
func NewTextResourceContents(uri, mimeType, text string) *ResourceContents {
	return &ResourceContents{URI: uri, MIMEType: mimeType, Text: text}
}

// NewBlobResourceContents returns binary contents of the resource with the
// given URI.
func NewBlobResourceContents(uri, mimeType string, blob []byte) *ResourceContents {
	if blob == nil {
		blob = []byte{}
	}
	return &ResourceContents{URI: uri, MIMEType: mimeType, Blob: blob}
}

type resourceContentsWire struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitzero"`
	Blob     *string `json:"blob,omitzero"`
	Meta     Meta    `json:"_meta,omitzero"`
}

// MarshalJSON encodes r as text contents, or as blob contents if Blob is
// non-nil.
func (r ResourceContents) MarshalJSON() ([]byte, error) {
	w := resourceContentsWire{URI: r.URI, MIMEType: r.MIMEType, Meta: r.Meta}
	if r.Blob != nil {
		b := base64.StdEncoding.EncodeToString(r.Blob)
		w.Blob = &b
	} else {
		w.Text = &r.Text
	}
	return strictjson.Marshal(w)
}

// UnmarshalJSON decodes text or blob contents into r. It reports an error
// if both "text" and "blob" are present or the blob is not valid base64.
// Contents with neither are decoded as empty text.
func (r *ResourceContents) UnmarshalJSON(data []byte) error {
	var w struct {
		URI      string     `json:"uri"`
		MIMEType string     `json:"mimeType"`
		Text     *string    `json:"text"`
		Blob     base64Data `json:"blob"`
		Meta     Meta       `json:"_meta"`
	}
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return fmt.Errorf("mcp: resource contents: %w", err)
	}
	out := ResourceContents{URI: w.URI, MIMEType: w.MIMEType, Meta: w.Meta}
	switch {
	case w.Text != nil && w.Blob.set:
		return errors.New(`mcp: resource contents have both "text" and "blob"`)
	case w.Blob.set:
		out.Blob = w.Blob.b
	case w.Text != nil:
		out.Text = *w.Text
	}
	*r = out
	return nil
}

// samplingContent is the content of a sampling message or result: one
// content object, or (2025-11-25) an array of them.
type samplingContent struct {
	blocks []*Content
	list   bool // encode as an array even if there is one block
}

// MarshalJSON writes one object if there is exactly one block and the
// content did not come from an array, and an array otherwise.
func (s samplingContent) MarshalJSON() ([]byte, error) {
	if len(s.blocks) == 1 && !s.list {
		return strictjson.Marshal(s.blocks[0])
	}
	if s.blocks == nil {
		return []byte("[]"), nil
	}
	return strictjson.Marshal(s.blocks)
}

// UnmarshalJSON accepts one content object or an array of them.
func (s *samplingContent) UnmarshalJSON(data []byte) error {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
		var blocks []*Content
		if err := strictjson.UnmarshalTrusted(data, &blocks); err != nil {
			return err
		}
		if blocks == nil {
			blocks = []*Content{}
		}
		*s = samplingContent{blocks: blocks, list: true}
		return nil
	}
	c := new(Content)
	if err := strictjson.UnmarshalTrusted(data, c); err != nil {
		return err
	}
	*s = samplingContent{blocks: []*Content{c}}
	return nil
}

// base64Data is binary data carried as a base64 JSON string (image and
// audio content, blob resource contents), decoded as it is read: from the
// message's bytes straight into its own buffer, without a string of the
// encoding in between, so a large blob costs its size once.
type base64Data struct {
	b   []byte
	set bool // the member was present and not null
}

// UnmarshalJSON decodes the base64 string data; null leaves v unset.
func (v *base64Data) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*v = base64Data{}
		return nil
	}
	b, err := decodeBase64Value(data)
	if err != nil {
		return fmt.Errorf("invalid base64: %w", err)
	}
	*v = base64Data{b: b, set: true}
	return nil
}

// decodeBase64Value decodes base64 data from v, a JSON string. The result
// is never nil for a string, so that empty data is told from none.
func decodeBase64Value(v jsontext.Value) ([]byte, error) {
	v = bytes.Trim(v, " \t\r\n") // JSON whitespace around the value, if any
	if len(v) < 2 || v.Kind() != '"' {
		return nil, fmt.Errorf("a JSON string is expected, not %s", v.Kind())
	}
	text := []byte(v[1 : len(v)-1])
	if bytes.IndexByte(text, '\\') >= 0 { // escapes, rare in base64: unquote first
		b, err := jsontext.AppendUnquote(nil, v)
		if err != nil {
			return nil, err
		}
		text = b
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(out, text)
	if err != nil {
		return nil, err
	}
	return out[:n:n], nil
}
