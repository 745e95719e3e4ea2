package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gomcp/sdk/ext/events"
	"github.com/gomcp/sdk/mcp"
)

// errEventsLimit ends a poll or stream that printed --limit events.
var errEventsLimit = errors.New("events: limit reached")

// cmdEvents lists the server's event types, or polls or streams one,
// printing each occurrence as it comes (one JSON object a line with
// --json) until interrupted or --limit of them.
func cmdEvents(ctx context.Context, c *cmdCtx) error {
	if len(c.positional) == 0 {
		return usageError("events: gomcp events TARGET list | poll NAME | stream NAME [key=value ...]")
	}
	op := c.positional[0]
	switch op {
	case "list":
		if len(c.positional) != 1 {
			return usageError("events list takes no arguments")
		}
	case "poll", "stream":
		if len(c.positional) < 2 {
			return usageError("events %s: which event type? gomcp events TARGET %s NAME [key=value ...]", op, op)
		}
	default:
		return usageError("events: unknown operation %q: want list, poll or stream", op)
	}
	if op == "stream" && c.sess != nil {
		return usageError("events stream: not in the shell: run gomcp events TARGET stream NAME")
	}
	var ec *events.Client
	c.setup = func(client *mcp.Client) { ec = events.EnableClient(client, nil) }
	cctx, cancel := c.oneShot(ctx)
	s, err := c.connect(cctx, mcp.ClientOptions{})
	cancel()
	if err != nil {
		return err
	}
	defer s.Close()
	if op == "list" {
		lctx, cancel := c.oneShot(ctx)
		defer cancel()
		types, err := events.ListTypes(lctx, s.ClientSession)
		if err != nil {
			return s.fail(err, "events/list")
		}
		return printEventTypes(c, types)
	}
	name := c.positional[1]
	args, err := buildArgs(c.env, nil, c.o.args, c.positional[2:])
	if err != nil {
		return err
	}
	n := 0
	onEvent := func(_ context.Context, o *events.Occurrence) error {
		if c.o.json {
			_ = printJSON(c.env.stdout, o)
		} else {
			fmt.Fprintf(c.env.stdout, "%s %s %s %s\n", time.Now().Format("15:04:05"), o.Name, o.EventID, o.Data)
		}
		if n++; c.o.limit > 0 && n >= c.o.limit {
			return errEventsLimit
		}
		return nil
	}
	if op == "poll" {
		err = events.PollLoop(ctx, s.ClientSession, name, &events.PollOptions{Arguments: args, OnEvent: onEvent})
	} else {
		err = ec.Stream(ctx, s.ClientSession, name, &events.StreamOptions{Arguments: args, OnEvent: onEvent})
	}
	if err == nil || errors.Is(err, errEventsLimit) || errors.Is(err, context.Canceled) {
		return nil
	}
	return s.fail(err, "events/"+op+" "+name)
}

// printEventTypes prints event types, one a line, or as JSON.
func printEventTypes(c *cmdCtx, types []*events.EventType) error {
	if c.o.json {
		return printJSON(c.env.stdout, struct {
			Events []*events.EventType `json:"events"`
		}{types})
	}
	for _, t := range types {
		schema, _ := json.Marshal(t.PayloadSchema)
		fmt.Fprintf(c.env.stdout, "%s (%s): %s\n  payload %s\n", t.Name, strings.Join(t.Delivery, ", "), t.Description, schema)
	}
	return nil
}
