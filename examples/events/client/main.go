// Command client starts the events example server over stdio and receives
// its event type, inbox.message, both ways the Events extension offers: a
// push stream filtered to one sender, and polling from a cursor. It sends
// three messages with the server's tool and prints what each way
// received.
//
//	go run ./examples/events/client [-server "command to run"]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

func main() {
	server := flag.String("server", "go run github.com/gomcp/sdk/examples/events/server", "command that runs the server")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, strings.Fields(*server)); err != nil {
		log.Fatal(err)
	}
}

// message is the payload of inbox.message.
type message struct {
	From    string `json:"from"`
	Subject string `json:"subject"`
}

// errEnough stops the poll loop once it has what it waits for.
var errEnough = errors.New("enough")

// run starts the server command, streams and polls inbox.message, sends
// three messages, and prints what arrives to w.
func run(ctx context.Context, w io.Writer, command []string) error {
	if len(command) == 0 {
		return errors.New("no server command")
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	// docs:region client
	client := mcp.NewClient("inbox-client", "v1.0.0", nil)
	ec := events.EnableClient(client, nil)
	cs, err := client.Connect(ctx, mcp.NewCommandTransport(cmd, nil))
	if err != nil {
		return err
	}
	defer cs.Close()
	types, err := events.ListTypes(ctx, cs)
	if err != nil {
		return err
	}
	for _, t := range types {
		fmt.Fprintf(w, "event type %s (%s): %s\n", t.Name, strings.Join(t.Delivery, ", "), t.Description)
	}
	// docs:endregion
	pushed, stopStream, err := streamFrom(ctx, ec, cs, "ada")
	if err != nil {
		return err
	}
	defer stopStream()
	// A poll cursor taken now: polling from it later returns what
	// happened in between, every sender's.
	start, err := events.Poll(ctx, cs, &events.PollParams{Name: "inbox.message"})
	if err != nil {
		return err
	}
	for _, m := range []message{{"ada", "hello"}, {"bob", "report"}, {"ada", "lunch?"}} {
		if _, err := cs.CallTool(ctx, "send_message", m, nil); err != nil {
			return err
		}
	}
	for range 2 {
		select {
		case m := <-pushed:
			fmt.Fprintf(w, "push stream of ada's messages: %s\n", m.Subject)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	stopStream()
	return pollAll(ctx, w, cs, start.Cursor, 3)
}

// streamFrom opens a push stream of the messages from one sender, on its
// own goroutine, and returns once the stream is open: its messages, and
// the function that closes it.
func streamFrom(ctx context.Context, ec *events.Client, cs *mcp.ClientSession, from string) (<-chan message, context.CancelFunc, error) {
	// docs:region stream
	streamCtx, stopStream := context.WithCancel(ctx)
	open := make(chan struct{})
	pushed := make(chan message)
	go ec.Stream(streamCtx, cs, "inbox.message", &events.StreamOptions{
		Arguments: map[string]string{"from": from},
		// The first cursor tells that the stream is open.
		OnCursor: func(string, bool) {
			select {
			case <-open:
			default:
				close(open)
			}
		},
		OnEvent: func(ctx context.Context, o *events.Occurrence) error {
			var m message
			if err := json.Unmarshal(o.Data, &m); err != nil {
				return err
			}
			select {
			case pushed <- m:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
	})
	select {
	case <-open:
	case <-ctx.Done():
		stopStream()
		return nil, nil, ctx.Err()
	}
	// docs:endregion
	return pushed, stopStream, nil
}

// pollAll polls inbox.message from cursor and prints every sender's
// messages to w until it has printed want of them.
func pollAll(ctx context.Context, w io.Writer, cs *mcp.ClientSession, cursor *string, want int) error {
	// docs:region poll
	n := 0
	err := events.PollLoop(ctx, cs, "inbox.message", &events.PollOptions{
		Cursor: cursor,
		OnEvent: func(_ context.Context, o *events.Occurrence) error {
			var m message
			if err := json.Unmarshal(o.Data, &m); err != nil {
				return err
			}
			fmt.Fprintf(w, "poll of all messages: %s: %s\n", m.From, m.Subject)
			if n++; n == want {
				return errEnough
			}
			return nil
		},
	})
	// docs:endregion
	if !errors.Is(err, errEnough) {
		return err
	}
	return nil
}
