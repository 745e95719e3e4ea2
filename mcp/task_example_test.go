package mcp_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// A tool that runs as a task and asks the user for confirmation midway.
// The client declares the tasks extension; CallTool then polls the task,
// answers its input request with the elicitation handler, and returns the
// tool's final result.
func ExampleTaskSupport() {
	ctx := context.Background()
	type deleteArgs struct {
		File string `json:"file"`
	}
	server := mcp.NewServer("files", "v1.0.0", &mcp.ServerOptions{
		Tasks: &mcp.TaskOptions{PollInterval: 10 * time.Millisecond},
	})
	server.AddTools(mcp.NewTool("delete", "Deletes a file after confirmation.",
		func(ctx context.Context, ss *mcp.ServerSession, in deleteArgs) ([]*mcp.Content, error) {
			// In a task, Elicit waits until the client answers through
			// tasks/update.
			res, err := ss.Elicit(ctx, &mcp.ElicitParams{
				Message: "Delete " + in.File + "?",
				RequestedSchema: &mcp.ElicitationSchema{
					Type:       "object",
					Properties: map[string]*mcp.PrimitiveSchema{"confirm": {Type: "boolean"}},
					Required:   []string{"confirm"},
				},
			})
			if err != nil {
				return nil, err
			}
			if res.Action != mcp.ElicitActionAccept || res.Content["confirm"] != true {
				return []*mcp.Content{mcp.NewTextContent("kept " + in.File)}, nil
			}
			return []*mcp.Content{mcp.NewTextContent("deleted " + in.File)}, nil
		},
		mcp.TaskSupport(mcp.TaskSupportOptional)))

	client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			Extensions: map[string]any{mcp.TasksExtension: map[string]any{}},
		},
		ElicitationHandler: func(_ context.Context, _ *mcp.ClientSession, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", p.Message)
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
	res, err := session.CallTool(ctx, "delete", map[string]any{"file": "notes.txt"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("result:", res.Content[0].Text)
	session.Close()
	serverSession.Wait()
	// Output:
	// asked: Delete notes.txt?
	// result: deleted notes.txt
}

// A tool that gathers input before it becomes a task: with
// HandlerStartsTask, the call is synchronous until the handler calls
// StartTask, so the question is asked through an input-required result and
// only the long work runs in the background.
func ExampleServerSession_StartTask() {
	ctx := context.Background()
	server := mcp.NewServer("reports", "v1.0.0", &mcp.ServerOptions{
		Tasks: &mcp.TaskOptions{PollInterval: 10 * time.Millisecond},
	})
	report := mcp.NewTool("report", "Builds a report for a user.",
		func(ctx context.Context, ss *mcp.ServerSession, _ struct{}) ([]*mcp.Content, error) {
			res, err := ss.Elicit(mcp.InputKey(ctx, "user_name"), &mcp.ElicitParams{
				Message: "For whom?",
				RequestedSchema: &mcp.ElicitationSchema{
					Type:       "object",
					Properties: map[string]*mcp.PrimitiveSchema{"name": {Type: "string"}},
					Required:   []string{"name"},
				},
			})
			if err != nil {
				return nil, err
			}
			if err := ss.StartTask(ctx); err != nil {
				return nil, err
			}
			// From here on the client polls the task.
			return []*mcp.Content{mcp.NewTextContent(fmt.Sprintf("report for %v (a task: %v)", res.Content["name"], ss.TaskID() != ""))}, nil
		},
		mcp.TaskSupport(mcp.TaskSupportRequired))
	report.HandlerStartsTask = true
	server.AddTools(report)

	client := mcp.NewClient("client", "v1.0.0", &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			Extensions: map[string]any{mcp.TasksExtension: map[string]any{}},
		},
		ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"name": "Ada"}}, nil
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
	res, err := session.CallTool(ctx, "report", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
	session.Close()
	serverSession.Wait()
	// Output: report for Ada (a task: true)
}
