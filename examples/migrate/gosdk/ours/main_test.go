package main

//lint:file-ignore SA1019 SEP-2577 deprecates sampling but every protocol version still has it: the migration example ports its use

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// docs:region testing
func TestGreet(t *testing.T) {
	ctx := context.Background()
	server := mcp.NewServer("test", "v1", nil)
	server.AddTools(mcp.NewTool("greet", "", greet))
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverTransport); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient("client", "v1", nil).Connect(ctx, clientTransport)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, "greet", map[string]any{"name": "you"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != "Hi you" {
		t.Errorf("got %q", got)
	}
}

// docs:endregion

// The translation behaves as the guide says: every tool answers, invalid
// arguments are tool errors, and server-to-client requests work in both
// eras.
func TestServer(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		ctx := context.Background()
		ct, st := mcp.NewInMemoryTransports()
		if _, err := newServer().Connect(ctx, st); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient("client", "v1", &mcp.ClientOptions{
			ProtocolVersion: version,
			CreateMessageHandler: func(context.Context, *mcp.ClientSession, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
				return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Content: []*mcp.Content{mcp.NewTextContent("short")}, Model: "m"}, nil
			},
			ElicitationHandler: func(context.Context, *mcp.ClientSession, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: mcp.ElicitActionAccept, Content: map[string]any{"people": 2}}, nil
			},
		}).Connect(ctx, ct)
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			tool    string
			args    map[string]any
			want    string
			isError bool
		}{
			{"greet", map[string]any{"name": "you", "style": "loud"}, "Hi you!", false},
			{"greet", map[string]any{"name": "you", "style": "shout"}, "style", true},
			{"greet", map[string]any{}, "name", true},
			{"forecast", map[string]any{"city": "Porto", "days": 2}, `{"city":"Porto","highs":[20,21]}`, false},
			{"forecast", map[string]any{"city": "Porto", "days": 9}, "days", true},
			{"summarize", map[string]any{"text": "long"}, "short", false},
			{"book_table", nil, "booked for 2", false},
			{"whoami", nil, "client on protocol " + version, false},
		}
		for _, tt := range tests {
			res, err := cs.CallTool(ctx, tt.tool, tt.args, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", version, tt.tool, err)
			}
			if res.IsError != tt.isError || !strings.Contains(res.Content[0].Text, tt.want) {
				t.Errorf("%s %s(%v) = %q (isError %v), want %q (isError %v)", version, tt.tool, tt.args, res.Content[0].Text, res.IsError, tt.want, tt.isError)
			}
		}
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://todo"})
		if err != nil || r.Contents[0].Text != "note todo" {
			t.Errorf("read: %v %+v", err, r)
		}
		p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "code_review", Arguments: map[string]string{"code": "x"}})
		if err != nil || !strings.Contains(p.Messages[0].Content.Text, "x") {
			t.Errorf("prompt: %v %+v", err, p)
		}
		cs.Close()
	}
}

// TestMain serves the translation over stdio when the test binary is
// started as a server by TestClient.
func TestMain(m *testing.M) {
	if os.Getenv("MIGRATE_SERVE") == "1" {
		if err := newServer().Run(context.Background(), mcp.NewStdIOTransport()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestClient(t *testing.T) {
	t.Setenv("MIGRATE_SERVE", "1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := callGreet(ctx, os.Args[0])
	if err != nil || got != "Hi you" {
		t.Errorf("callGreet = %q, %v", got, err)
	}
}
