package mcp_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// The same task tool served to a client of protocol 2025-11-25, where tasks
// are part of the core protocol: the client, which opted into tasks by
// declaring the extension, learns from tools/list that the tool supports
// tasks, sends the call with params.task, and CallTool follows the task
// (tasks/get, then tasks/result) to the tool's result. The handler's
// question reaches the client as an ordinary elicitation request.
func ExampleTaskSupport_protocol20251125() {
	ctx := context.Background()
	server := mcp.NewServer("jobs", "v1.0.0", &mcp.ServerOptions{
		Tasks: &mcp.TaskOptions{PollInterval: 10 * time.Millisecond},
	})
	server.AddTools(mcp.NewTool("build", "Builds the project after confirmation.",
		func(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
			res, err := ss.Elicit(ctx, &mcp.ElicitParams{
				Message: "Build now?",
				RequestedSchema: &mcp.ElicitationSchema{
					Type:       "object",
					Properties: map[string]*mcp.PrimitiveSchema{"confirm": {Type: "boolean"}},
				},
			})
			if err != nil {
				return nil, err
			}
			return []*mcp.Content{mcp.NewTextContent("build " + string(res.Action) + "ed")}, nil
		},
		mcp.TaskSupport(mcp.TaskSupportOptional)))

	client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{
		ProtocolVersion: mcp.Version20251125,
		Capabilities: &mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapability{},
			Extensions:  map[string]any{mcp.TasksExtension: map[string]any{}},
		},
		ElicitationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", p.Message, "for task", p.Meta.RelatedTask != nil)
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"confirm": true}}, nil
		},
	})
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	serverSession, err := server.Connect(ctx, serverTransport)
	if err != nil {
		log.Fatal(err)
	}
	session, err := client.Connect(ctx, clientTransport)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := session.ListTools(ctx, nil); err != nil {
		log.Fatal(err)
	}
	res, err := session.CallTool(ctx, "build", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("result:", res.Content[0].Text)
	tasks, err := session.ListTasks(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("tasks:", len(tasks.Tasks), tasks.Tasks[0].Status)
	session.Close()
	serverSession.Wait()
	// Output:
	// asked: Build now? for task true
	// result: build accepted
	// tasks: 1 completed
}
