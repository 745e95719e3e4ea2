package mcp_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gomcp/sdk/mcp"
)

// resourceExampleSession connects a client to a server in the same process.
func resourceExampleSession(server *mcp.Server, client *mcp.Client) (*mcp.ClientSession, func()) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st)
	if err != nil {
		log.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct)
	if err != nil {
		log.Fatal(err)
	}
	return cs, func() { cs.Close(); ss.Wait() }
}

func ExampleServer_AddResources() {
	server := mcp.NewServer("docs", "v1", nil)
	server.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "docs://readme", Name: "readme", MIMEType: "text/markdown"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			// The URI and MIME type are filled in from the resource.
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: "# Hello"}}}, nil
		},
	})

	cs, done := resourceExampleSession(server, mcp.NewClient("client", "v1", nil))
	defer done()
	ctx := context.Background()
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("listed:", r.URI)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docs://readme"})
	if err != nil {
		log.Fatal(err)
	}
	c := res.Contents[0]
	fmt.Println("read:", c.URI, c.MIMEType, c.Text)
	// Output:
	// listed: docs://readme
	// read: docs://readme text/markdown # Hello
}

func ExampleResourceTemplateValues() {
	server := mcp.NewServer("weather", "v1", nil)
	server.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: "weather://{city}/today{?units}", Name: "forecast", MIMEType: "text/plain"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			vals := mcp.ResourceTemplateValues(ctx)
			units := vals.Get("units")
			if units == "" {
				units = "metric"
			}
			text := fmt.Sprintf("%s: sunny (%s)", vals.Get("city"), units)
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: text}}}, nil
		},
	})

	cs, done := resourceExampleSession(server, mcp.NewClient("client", "v1", nil))
	defer done()
	for _, uri := range []string{"weather://San%20Sebasti%C3%A1n/today", "weather://Oslo/today?units=imperial"} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Contents[0].Text)
	}
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "weather://Oslo/tomorrow"})
	fmt.Println(err != nil)
	// Output:
	// San Sebastián: sunny (metric)
	// Oslo: sunny (imperial)
	// true
}

func ExampleFileResourceHandler() {
	dir, err := os.MkdirTemp("", "files")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"debug":true}`), 0o644); err != nil {
		log.Fatal(err)
	}

	server := mcp.NewServer("files", "v1", nil)
	server.AddResourceTemplates(&mcp.ServerResourceTemplate{
		Template: &mcp.ResourceTemplate{URITemplate: "file:///{+path}", Name: "files"},
		Handler:  mcp.FileResourceHandler(dir),
	})

	// The client lets the server read under dir: the handler refuses files
	// outside the client's roots.
	client := mcp.NewClient("client", "v1", nil)
	client.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(dir)})
	cs, done := resourceExampleSession(server, client)
	defer done()

	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file:///config.json"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Contents[0].MIMEType, res.Contents[0].Text)
	_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "file:///../etc/passwd"})
	fmt.Println(err != nil)
	// Output:
	// application/json {"debug":true}
	// true
}

func ExampleServer_ResourceUpdated() {
	subscribed := make(chan struct{})
	server := mcp.NewServer("watcher", "v1", &mcp.ServerOptions{
		SubscribeHandler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.SubscribeParams) error {
			close(subscribed) // start watching p.URI
			return nil
		},
		UnsubscribeHandler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.UnsubscribeParams) error {
			return nil // stop watching p.URI
		},
	})
	server.AddResources(&mcp.ServerResource{
		Resource: &mcp.Resource{URI: "app://status", Name: "status"},
		Handler: func(ctx context.Context, ss *mcp.ServerSession, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: "ok"}}}, nil
		},
	})

	updated := make(chan string, 1)
	client := mcp.NewClient("client", "v1", &mcp.ClientOptions{
		ProtocolVersion: "2025-11-25", // resources/subscribe is part of the legacy protocol
		ResourceUpdatedHandler: func(ctx context.Context, cs *mcp.ClientSession, p *mcp.ResourceUpdatedParams) {
			updated <- p.URI
		},
	})
	cs, done := resourceExampleSession(server, client)
	defer done()

	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "app://status"}); err != nil {
		log.Fatal(err)
	}
	<-subscribed
	if err := server.ResourceUpdated(ctx, &mcp.ResourceUpdatedParams{URI: "app://status"}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("updated:", <-updated)
	// Output:
	// updated: app://status
}
