package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"go.yaml.in/yaml/v3"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A fixture is what gomcp mock serves: a YAML or JSON file.
type fixture struct {
	Server struct {
		Name         string `json:"name"`
		Version      string `json:"version"`
		Instructions string `json:"instructions"`
	} `json:"server"`
	Tools     []fixtureTool     `json:"tools"`
	Prompts   []fixturePrompt   `json:"prompts"`
	Resources []fixtureResource `json:"resources"`
	Templates []fixtureTemplate `json:"templates"`
}

// fixtureTool is a tool with a canned answer: Text (with {{arg}}
// placeholders), or a whole CallToolResult.
type fixtureTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Text         string          `json:"text"`
	IsError      bool            `json:"isError"`
	Result       json.RawMessage `json:"result"`
}

type fixturePrompt struct {
	Name        string                `json:"name"`
	Description string                `json:"description"`
	Arguments   []*mcp.PromptArgument `json:"arguments"`
	Messages    []struct {
		Role string `json:"role"`
		Text string `json:"text"`
	} `json:"messages"`
}

type fixtureResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
	Text        string `json:"text"`
	Blob        []byte `json:"blob"` // base64
}

type fixtureTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Description string `json:"description"`
	MIMEType    string `json:"mimeType"`
	Text        string `json:"text"` // {{var}} from the template's variables
}

// maxFixtureSize bounds a fixture file.
const maxFixtureSize = 16 << 20

// loadFixture reads a YAML or JSON fixture (JSON is YAML). Member names
// match case-sensitively and unknown members are errors, so typos show.
func loadFixture(path string) (*fixture, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > maxFixtureSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxFixtureSize)
	}
	return parseFixture(data)
}

func parseFixture(data []byte) (*fixture, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	asJSON, err := strictjson.Marshal(jsonable(doc))
	if err != nil {
		return nil, err
	}
	var f fixture
	if err := jsonv2.Unmarshal(asJSON, &f, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, err
	}
	if f.Server.Name == "" {
		f.Server.Name = "gomcp-mock"
	}
	if f.Server.Version == "" {
		f.Server.Version = "1.0.0"
	}
	for i, t := range f.Tools {
		if t.Name == "" {
			return nil, fmt.Errorf("tool %d has no name", i+1)
		}
		if len(t.Result) > 0 {
			var r mcp.CallToolResult
			if err := strictjson.Unmarshal(t.Result, &r); err != nil {
				return nil, fmt.Errorf("tool %s: result: %w", t.Name, err)
			}
		}
	}
	for i, r := range f.Resources {
		if r.URI == "" {
			return nil, fmt.Errorf("resource %d has no uri", i+1)
		}
	}
	return &f, nil
}

// jsonable turns YAML's map[string]any/map[any]any into JSON-encodable
// values.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}`)

// fill replaces {{name}} with values[name] (JSON text for non-strings).
func fill(text string, values map[string]any) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		v, ok := values[name]
		if !ok {
			return ""
		}
		if s, ok := v.(string); ok {
			return s
		}
		data, _ := strictjson.Marshal(v)
		return string(data)
	})
}

// newMockServer builds the server a fixture describes. The SDK panics on
// invalid registrations (a relative resource URI, a bad template), which
// a fixture must report as an error instead.
func newMockServer(f *fixture) (srv *mcp.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			srv, err = nil, fmt.Errorf("%v", r)
		}
	}()
	srv = mcp.NewServer(f.Server.Name, f.Server.Version, &mcp.ServerOptions{Instructions: f.Server.Instructions})
	for _, t := range f.Tools {
		srv.AddTools(mockTool(t))
	}
	for _, p := range f.Prompts {
		srv.AddPrompts(mockPrompt(p))
	}
	for _, r := range f.Resources {
		rc := &mcp.ResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob}
		srv.AddResources(&mcp.ServerResource{
			Resource: &mcp.Resource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType},
			Handler: func(context.Context, *mcp.ServerSession, *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
			},
		})
	}
	for _, tp := range f.Templates {
		srv.AddResourceTemplates(&mcp.ServerResourceTemplate{
			Template: &mcp.ResourceTemplate{URITemplate: tp.URITemplate, Name: tp.Name, Description: tp.Description, MIMEType: tp.MIMEType},
			Handler: func(ctx context.Context, _ *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
				values := map[string]any{}
				for k, v := range mcp.ResourceTemplateValues(ctx) {
					values[k] = strings.Join(v, ",")
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
					{URI: p.URI, MIMEType: tp.MIMEType, Text: fill(tp.Text, values)},
				}}, nil
			},
		})
	}
	return srv, nil
}

func mockTool(t fixtureTool) *mcp.ServerTool {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	tool := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema}
	if len(t.OutputSchema) > 0 {
		tool.OutputSchema = t.OutputSchema
	}
	return &mcp.ServerTool{Tool: tool, Handler: func(_ context.Context, _ *mcp.ServerSession, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
		if len(t.Result) > 0 {
			var r mcp.CallToolResult
			if err := strictjson.Unmarshal(t.Result, &r); err != nil {
				return nil, err
			}
			return &r, nil
		}
		args := map[string]any{}
		if raw, ok := p.Arguments.(json.RawMessage); ok && len(raw) > 0 {
			if err := strictjson.Unmarshal(raw, &args); err != nil {
				return nil, fmt.Errorf("arguments: %w", err)
			}
		}
		return &mcp.CallToolResult{Content: []*mcp.Content{mcp.NewTextContent(fill(t.Text, args))}, IsError: t.IsError}, nil
	}}
}

func mockPrompt(p fixturePrompt) *mcp.ServerPrompt {
	return &mcp.ServerPrompt{
		Prompt: &mcp.Prompt{Name: p.Name, Description: p.Description, Arguments: p.Arguments},
		Handler: func(_ context.Context, _ *mcp.ServerSession, gp *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
			values := map[string]any{}
			for k, v := range gp.Arguments {
				values[k] = v
			}
			res := &mcp.GetPromptResult{Description: p.Description}
			for _, m := range p.Messages {
				role := mcp.Role(m.Role)
				if role == "" {
					role = mcp.RoleUser
				}
				res.Messages = append(res.Messages, &mcp.PromptMessage{Role: role, Content: mcp.NewTextContent(fill(m.Text, values))})
			}
			return res, nil
		},
	}
}

func cmdMock(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) != 1 || len(c.command) > 0 {
		return usageError("mock: gomcp mock [--http ADDR] FIXTURE.yaml")
	}
	f, err := loadFixture(c.positional[0])
	if err != nil {
		return usageError("mock: %v", err)
	}
	srv, err := newMockServer(f)
	if err != nil {
		return usageError("mock: %v", err)
	}
	return serve(ctx, c, srv)
}

// serve serves srv on stdio, or over streamable HTTP at /mcp with --http.
func serve(ctx context.Context, c *cmdCtx, srv *mcp.Server) error {
	if c.o.httpAddr == "" {
		err := srv.Run(ctx, mcp.NewStdIOTransport())
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
			return &cliError{exit: exitUsage, code: "unexpected", msg: "serving stdio", cause: err}
		}
		return nil
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	return serveHTTP(ctx, c, c.o.httpAddr, handler)
}

// serveHTTP serves handler at /mcp on addr until ctx ends, announcing the
// URL on stderr.
func serveHTTP(ctx context.Context, c *cmdCtx, addr string, handler http.Handler) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError("--http %s: %v", addr, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	fmt.Fprintf(c.env.stderr, "gomcp %s: listening on http://%s/mcp\n", c.verb.name, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return &cliError{exit: exitUsage, code: "unexpected", msg: "serving HTTP", cause: err}
	case <-ctx.Done():
	}
	if cl, ok := handler.(interface{ Close() error }); ok {
		_ = cl.Close()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return nil
}
