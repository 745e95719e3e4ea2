package bench

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/gomcp/sdk/mcp"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Large payloads: every benchmark server offers the tool TextTool, which
// answers one text block of the size its argument "size" names (one of
// PayloadSizes), and the resource BlobURI, a binary resource of BlobSize
// bytes (base64 on the wire). The payloads are made once per process, so
// that a call measures what the SDK does with them, not their making.

// TextTool is the name of the large-text tool.
const TextTool = "text"

// BlobURI is the URI of the large binary resource.
const BlobURI = "bench://blob"

// Payload sizes.
const (
	MiB = 1 << 20
	// BlobSize is the size of the resource at BlobURI.
	BlobSize = 16 * MiB
)

// maxPayloadEvent is the largest SSE event or JSON response our client
// reads in the benchmarks: above the default (16 MiB), so that a 16 MiB
// payload and its envelope fit, as a program that needs them would set it.
const maxPayloadEvent = 64 * MiB

// PayloadSizes are the text sizes TextTool serves.
var PayloadSizes = []int{1 * MiB, 16 * MiB}

// payloads holds the texts and the blob, made on first use.
var payloads = sync.OnceValue(func() (p struct {
	text map[int]string
	blob []byte
	b64  string
}) {
	p.text = make(map[int]string)
	for _, n := range PayloadSizes {
		p.text[n] = strings.Repeat("x", n)
	}
	p.blob = make([]byte, BlobSize)
	for i := range p.blob {
		p.blob[i] = byte(i * 7)
	}
	p.b64 = base64.StdEncoding.EncodeToString(p.blob)
	return p
})

// payloadText returns the text of size n, or an error for a size not
// served.
func payloadText(n int) (string, error) {
	t, ok := payloads().text[n]
	if !ok {
		return "", fmt.Errorf("no payload of %d bytes", n)
	}
	return t, nil
}

// A PayloadSession is a Session that can fetch the large payloads.
type PayloadSession interface {
	// CallText calls TextTool for size bytes and returns the length of
	// the text received.
	CallText(ctx context.Context, size int) (int, error)
	// ReadBlob reads BlobURI and returns the number of bytes decoded.
	ReadBlob(ctx context.Context) (int, error)
}

var (
	_ PayloadSession = (*oursSession)(nil)
	_ PayloadSession = (*gosdkSession)(nil)
	_ PayloadSession = (*mcpgoSession)(nil)
)

// sizeArgs is the input of TextTool.
type sizeArgs struct {
	Size int `json:"size" jsonschema:"the size of the text in bytes"`
}

// checkPayload checks a received length.
func checkPayload(got, want int) (int, error) {
	if got != want {
		return got, fmt.Errorf("%w: got %d bytes, want %d", ErrMismatch, got, want)
	}
	return got, nil
}

// ---- ours ----

func oursAddPayloads(s *mcp.Server) {
	s.AddTools(mcp.NewTool(TextTool, "answer a large text", func(ctx context.Context, ss *mcp.ServerSession, in sizeArgs) ([]*mcp.Content, error) {
		t, err := payloadText(in.Size)
		if err != nil {
			return nil, err
		}
		return []*mcp.Content{mcp.NewTextContent(t)}, nil
	}))
	s.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: BlobURI, Name: "blob", MIMEType: "application/octet-stream"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				mcp.NewBlobResourceContents(BlobURI, "application/octet-stream", payloads().blob)}}, nil
		},
	})
}

func (s *oursSession) CallText(ctx context.Context, size int) (int, error) {
	res, err := s.cs.CallTool(ctx, TextTool, map[string]any{"size": size}, nil)
	if err != nil {
		return 0, err
	}
	if res.IsError || len(res.Content) != 1 {
		return 0, fmt.Errorf("%w: %d blocks, isError %v", ErrMismatch, len(res.Content), res.IsError)
	}
	return checkPayload(len(res.Content[0].Text), size)
}

func (s *oursSession) ReadBlob(ctx context.Context) (int, error) {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: BlobURI})
	if err != nil {
		return 0, err
	}
	if len(res.Contents) != 1 {
		return 0, fmt.Errorf("%w: %d contents", ErrMismatch, len(res.Contents))
	}
	return checkPayload(len(res.Contents[0].Blob), BlobSize)
}

// ---- go-sdk ----

func gosdkAddPayloads(s *gosdk.Server) {
	gosdk.AddTool(s, &gosdk.Tool{Name: TextTool, Description: "answer a large text"},
		func(ctx context.Context, req *gosdk.CallToolRequest, in sizeArgs) (*gosdk.CallToolResult, any, error) {
			t, err := payloadText(in.Size)
			if err != nil {
				return nil, nil, err
			}
			return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: t}}}, nil, nil
		})
	s.AddResource(&gosdk.Resource{URI: BlobURI, Name: "blob", MIMEType: "application/octet-stream"},
		func(ctx context.Context, req *gosdk.ReadResourceRequest) (*gosdk.ReadResourceResult, error) {
			return &gosdk.ReadResourceResult{Contents: []*gosdk.ResourceContents{
				{URI: BlobURI, MIMEType: "application/octet-stream", Blob: payloads().blob}}}, nil
		})
}

func (s *gosdkSession) CallText(ctx context.Context, size int) (int, error) {
	res, err := s.cs.CallTool(ctx, &gosdk.CallToolParams{Name: TextTool, Arguments: map[string]any{"size": size}})
	if err != nil {
		return 0, err
	}
	if res.IsError || len(res.Content) != 1 {
		return 0, fmt.Errorf("%w: %d blocks, isError %v", ErrMismatch, len(res.Content), res.IsError)
	}
	tc, ok := res.Content[0].(*gosdk.TextContent)
	if !ok {
		return 0, fmt.Errorf("%w: content %T", ErrMismatch, res.Content[0])
	}
	return checkPayload(len(tc.Text), size)
}

func (s *gosdkSession) ReadBlob(ctx context.Context) (int, error) {
	res, err := s.cs.ReadResource(ctx, &gosdk.ReadResourceParams{URI: BlobURI})
	if err != nil {
		return 0, err
	}
	if len(res.Contents) != 1 {
		return 0, fmt.Errorf("%w: %d contents", ErrMismatch, len(res.Contents))
	}
	return checkPayload(len(res.Contents[0].Blob), BlobSize)
}

// ---- mcp-go ----

// mcpgoAddPayloads registers the payloads with mcp-go. Its blob contents
// are base64 text that the program encodes itself, so the server returns
// the encoding made once, and the client decodes it, as a program would.
func mcpgoAddPayloads(s *mcpserver.MCPServer) {
	s.AddTool(mcpgo.NewTool(TextTool, mcpgo.WithDescription("answer a large text"),
		mcpgo.WithNumber("size", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			size, err := req.RequireInt("size")
			if err != nil {
				return mcpgo.NewToolResultError(err.Error()), nil
			}
			t, err := payloadText(size)
			if err != nil {
				return mcpgo.NewToolResultError(err.Error()), nil
			}
			return mcpgo.NewToolResultText(t), nil
		})
	s.AddResource(mcpgo.NewResource(BlobURI, "blob", mcpgo.WithMIMEType("application/octet-stream")),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{
				URI: BlobURI, MIMEType: "application/octet-stream", Blob: payloads().b64}}, nil
		})
}

func (s *mcpgoSession) CallText(ctx context.Context, size int) (int, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name = TextTool
	req.Params.Arguments = map[string]any{"size": size}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return 0, err
	}
	if res.IsError || len(res.Content) != 1 {
		return 0, fmt.Errorf("%w: %d blocks, isError %v", ErrMismatch, len(res.Content), res.IsError)
	}
	tc, ok := res.Content[0].(mcpgo.TextContent)
	if !ok {
		return 0, fmt.Errorf("%w: content %T", ErrMismatch, res.Content[0])
	}
	return checkPayload(len(tc.Text), size)
}

func (s *mcpgoSession) ReadBlob(ctx context.Context) (int, error) {
	var req mcpgo.ReadResourceRequest
	req.Params.URI = BlobURI
	res, err := s.c.ReadResource(ctx, req)
	if err != nil {
		return 0, err
	}
	if len(res.Contents) != 1 {
		return 0, fmt.Errorf("%w: %d contents", ErrMismatch, len(res.Contents))
	}
	bc, ok := res.Contents[0].(mcpgo.BlobResourceContents)
	if !ok {
		return 0, fmt.Errorf("%w: contents %T", ErrMismatch, res.Contents[0])
	}
	blob, err := base64.StdEncoding.DecodeString(bc.Blob)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrMismatch, err)
	}
	return checkPayload(len(blob), BlobSize)
}
