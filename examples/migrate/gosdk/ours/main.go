// Command ours is the translation of ../peer (written with
// github.com/modelcontextprotocol/go-sdk) to github.com/gomcp/sdk, for the
// migration guide. Each docs:region translates the same region of ../peer.
package main

//lint:file-ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it: the migration example ports its use

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address instead of stdio")
	flag.Parse()
	ctx := context.Background()
	s := newServer()
	if *addr != "" {
		// docs:region http
		// One handler serves every protocol version: sessions for clients
		// of 2025-11-25 and earlier, stateless requests for 2026-07-28.
		getServer := func(*http.Request) *mcp.Server { return s }
		handler := mcp.NewStreamableHTTPHandler(getServer, nil)
		mux := http.NewServeMux()
		mux.Handle("/mcp", handler)
		httpServer := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
		if err := httpServer.ListenAndServe(); err != nil {
			log.Fatal(err)
		}
		// docs:endregion
		return
	}
	// docs:region stdio
	if err := s.Run(ctx, mcp.NewStdIOTransport()); err != nil {
		log.Fatal(err)
	}
	// docs:endregion
}

func newServer() *mcp.Server {
	// docs:region construct
	s := mcp.NewServer("demo", "v1.0.0", &mcp.ServerOptions{
		Instructions: "Greets people and books tables.",
	})
	// docs:endregion
	s.AddMiddleware(logMethods)
	// docs:region middleware
	s.AddMiddleware(func(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
		return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (res any, err error) {
			p, ok := params.(*mcp.CallToolParams)
			if !ok {
				return next(ctx, ss, method, params) // not a tool call
			}
			start := time.Now()
			defer func() { // a panicking tool must not end the process
				if r := recover(); r != nil {
					log.Printf("tool %s panicked: %v\n%s", p.Name, r, debug.Stack())
					res, err = nil, fmt.Errorf("tool %s failed", p.Name)
				}
			}()
			res, err = next(ctx, ss, method, params)
			log.Printf("tool %s took %v", p.Name, time.Since(start))
			return res, err
		}
	})
	// docs:endregion
	// docs:region tool
	s.AddTools(mcp.NewTool("greet", "Says hi", greet))
	// docs:endregion
	// docs:region typed
	s.AddTools(mcp.NewStructuredTool("forecast", "Daily highs for a city", getForecast))
	// docs:endregion
	s.AddTools(
		mcp.NewTool("summarize", "", summarize),
		mcp.NewTool("book_table", "", bookTable),
		mcp.NewTool("whoami", "", whoami))
	addResources(s)
	addPrompts(s)
	return s
}

// docs:region handler
// greetArgs are greet's arguments: name is required, style is not
// (omitempty). Tags set any schema keyword, not only the description.
type greetArgs struct {
	Name  string `json:"name" jsonschema:"who to greet"`
	Style string `json:"style,omitempty" jsonschema:"description=plain or loud,enum=plain|loud"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, in greetArgs) ([]*mcp.Content, error) {
	if in.Style == "loud" {
		in.Name += "!"
	}
	return []*mcp.Content{mcp.NewTextContent("Hi " + in.Name)}, nil
}

// docs:endregion

// docs:region typed-handler
type forecastArgs struct {
	City string `json:"city" jsonschema:"description=city name"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
}

type forecast struct {
	City  string    `json:"city"`
	Highs []float64 `json:"highs"`
}

func getForecast(ctx context.Context, ss *mcp.ServerSession, in forecastArgs) (forecast, error) {
	if in.City == "" {
		return forecast{}, errors.New("no city") // a result with isError
	}
	return forecast{City: in.City, Highs: []float64{20, 21, 19}[:max(1, min(in.Days, 3))]}, nil
}

// docs:endregion

// logMethods logs every request and notification, and the failures.
func logMethods(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
	return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
		log.Printf("-> %s", method)
		res, err := next(ctx, ss, method, params)
		if err != nil {
			log.Printf("%s failed: %v", method, err)
		}
		return res, err
	}
}

type summarizeArgs struct {
	Text string `json:"text"`
}

// docs:region sampling
func summarize(ctx context.Context, ss *mcp.ServerSession, in summarizeArgs) ([]*mcp.Content, error) {
	res, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages: []*mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: []*mcp.Content{mcp.NewTextContent("Summarize: " + in.Text)}},
		},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, err
	}
	return res.Content, nil
}

// docs:endregion

// docs:region elicitation
func bookTable(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{
		Message: "How many people?",
		RequestedSchema: &mcp.ElicitationSchema{
			Type:       "object",
			Properties: map[string]*mcp.PrimitiveSchema{"people": {Type: "integer"}},
			Required:   []string{"people"},
		},
	})
	if err != nil {
		return nil, err
	}
	if res.Action != mcp.ElicitActionAccept {
		return []*mcp.Content{mcp.NewTextContent("not booked")}, nil
	}
	return []*mcp.Content{mcp.NewTextContent(fmt.Sprintf("booked for %v", res.Content["people"]))}, nil
}

// docs:endregion

// docs:region session
// The session is the handler's second argument. In 2026-07-28 there is no
// session id: each request carries the client's identity.
func whoami(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
	text := fmt.Sprintf("%s on protocol %s", ss.ClientInfo().Name, ss.ProtocolVersion())
	return []*mcp.Content{mcp.NewTextContent(text)}, nil
}

// docs:endregion

// docs:region resources
func addResources(s *mcp.Server) {
	s.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "notes://index", Name: "index", MIMEType: "text/plain"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			// URI and MIME type default to the resource's.
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: "welcome"}}}, nil
		},
	})
	s.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: "notes://{name}", Name: "note"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			name := mcp.ResourceTemplateValues(ctx).Get("name")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: "note " + name}}}, nil
		},
	})
}

// docs:endregion

// docs:region prompts
type reviewArgs struct {
	Code     string `json:"code"`               // required
	Language string `json:"language,omitempty"` // optional
}

func addPrompts(s *mcp.Server) {
	s.AddPrompts(mcp.NewPrompt("code_review", "Asks the model to review code",
		func(ctx context.Context, ss *mcp.ServerSession, in reviewArgs) (*mcp.GetPromptResult, error) {
			text := fmt.Sprintf("Review this %s code:\n%s", in.Language, in.Code)
			return &mcp.GetPromptResult{
				Description: "A code review",
				Messages:    []*mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}},
			}, nil
		}))
}

// docs:endregion
