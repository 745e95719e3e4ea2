package mcp

import (
	"context"
	"fmt"
	"testing"
)

// The 2026-07-28 tasks extension is turned on like any extension, with
// AddExtension: by the first tool that supports tasks, or by ServerOptions
// that declare it. It stays on when the task tools are removed, so tasks
// already created stay readable. Without it, its methods do not exist.
func TestTasksExtensionTurnedOn(t *testing.T) {
	ctx := context.Background()
	taskTool := func() *ServerTool {
		return NewTool("slow", "runs as a task", func(context.Context, *ServerSession, struct{}) ([]*Content, error) {
			return []*Content{NewTextContent("done")}, nil
		}, TaskSupport(TaskSupportOptional))
	}
	withTool := NewServer("tool", "v1", nil)
	withTool.AddTools(taskTool())
	removed := NewServer("removed", "v1", nil)
	removed.AddTools(taskTool())
	removed.RemoveTools("slow")
	declared := NewServer("declared", "v1", &ServerOptions{Capabilities: &ServerCapabilities{
		Extensions: map[string]any{TasksExtension: map[string]any{"note": "from options"}},
	}})
	plain := NewServer("plain", "v1", nil)
	plain.AddTools(echoTool())
	tests := []struct {
		name     string
		server   *Server
		settings string    // the server's declared settings, "" for none
		code     ErrorCode // of tasks/get for an unknown task
	}{
		{"a task tool", withTool, "map[]", CodeInvalidParams},
		{"task tools removed", removed, "map[]", CodeInvalidParams},
		{"declared in options", declared, "map[note:from options]", CodeInvalidParams},
		{"no task tool", plain, "", CodeMethodNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := connect(t, tt.server, &ClientOptions{ProtocolVersion: Version20260728, Capabilities: &ClientCapabilities{
				Extensions: map[string]any{TasksExtension: map[string]any{}},
			}})
			settings, ok := cs.ServerExtension(TasksExtension)
			if got := fmt.Sprint(settings); ok != (tt.settings != "") || (ok && got != tt.settings) {
				t.Errorf("declared settings = %s, %v; want %q", got, ok, tt.settings)
			}
			err := cs.Call(ctx, MethodGetTask, &GetTaskParams{TaskID: "none"}, &DetailedTask{})
			if got := CodeOf(err); got != tt.code {
				t.Errorf("tasks/get of an unknown task: %v (code %d); want code %d", err, got, tt.code)
			}
		})
	}
}
