// Package notes is a small MCP extension, "com.example/notes", written on the
// SDK's public API as a third party would write one: a server keeps notes
// that clients add and list with two methods the protocol does not define.
//
// Like every extension it is off until a program turns it on: EnableServer
// declares it in a server's capabilities, with its settings, and adds its
// methods; EnableClient declares it in a client's and handles the
// server's notification. Listing works for every client; adding a
// note requires the client to have declared the extension, and a client
// that did not gets a "missing required client capability" error.
package notes

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/gomcp/sdk/mcp"
)

// docs:region types
// ExtensionID identifies the extension in capabilities: a vendor prefix,
// then the extension's name.
const ExtensionID = "com.example/notes"

// The extension's methods, named under its identifier so that they never
// collide with the protocol's or another extension's.
const (
	MethodAdd  = "com.example/notes/add"
	MethodList = "com.example/notes/list"
	// NotificationAdded tells a client that added a note the server's
	// new count (server to client).
	NotificationAdded = "com.example/notes/added"
)

// Settings is the extension's entry in the server's capabilities.
type Settings struct {
	// MaxNotes is how many notes the server keeps.
	MaxNotes int `json:"maxNotes"`
}

// AddParams are the params of MethodAdd. Like the protocol's params types,
// they have a Meta field, which carries per-request metadata in 2026-07-28.
type AddParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	Text string   `json:"text"`
}

// AddResult is the result of MethodAdd.
type AddResult struct {
	// Count is the number of notes the server now holds.
	Count int `json:"count"`
}

// AddedParams are the params of NotificationAdded.
type AddedParams struct {
	Meta  mcp.Meta `json:"_meta,omitzero"`
	Text  string   `json:"text"`
	Count int      `json:"count"`
}

// ListParams are the params of MethodList.
type ListParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
}

// ListResult is the result of MethodList.
type ListResult struct {
	Notes []string `json:"notes"`
}

// docs:endregion

// ErrNotSupported reports a server that did not declare the extension.
var ErrNotSupported = errors.New("notes: the server does not support " + ExtensionID)

// A store holds a server's notes.
type store struct {
	mu    sync.Mutex
	max   int
	notes []string
}

// docs:region enable
// EnableServer turns the extension on for s and returns s: one call to
// AddExtension declares it in the server's capabilities, with settings,
// and adds its methods. The server keeps settings.MaxNotes notes (the
// oldest go first).
func EnableServer(s *mcp.Server, settings Settings) *mcp.Server {
	st := &store{max: settings.MaxNotes}
	s.AddExtension(ExtensionID, settings,
		mcp.NewServerMethod(MethodAdd, st.add, &mcp.MethodOptions{
			// Validate runs before the handler; its error reaches the
			// client as -32602 (invalid params).
			Validate: func(params any) error {
				if params.(*AddParams).Text == "" {
					return errors.New("text is empty")
				}
				return nil
			},
		}),
		mcp.NewServerMethod(MethodList, st.list, nil),
	)
	return s
}

// EnableClient declares the extension, with no settings, for c and
// returns c. If added is not nil, it receives the server's
// NotificationAdded notifications.
func EnableClient(c *mcp.Client, added func(context.Context, *AddedParams)) *mcp.Client {
	c.AddExtension(ExtensionID, nil, mcp.NewClientNotification(NotificationAdded,
		func(ctx context.Context, cs *mcp.ClientSession, p *AddedParams) {
			if added != nil {
				added(ctx, p)
			}
		}, nil))
	return c
}

// docs:endregion

// docs:region serve
func (st *store) add(ctx context.Context, ss *mcp.ServerSession, p *AddParams) (*AddResult, error) {
	// Adding is for clients that declared the extension: in 2026-07-28 in
	// this request's metadata, before it at initialize.
	caps := ss.ClientCapabilities()
	if caps == nil || caps.Extensions[ExtensionID] == nil {
		return nil, mcp.MissingExtensionError(ExtensionID)
	}
	st.mu.Lock()
	st.notes = append(st.notes, p.Text)
	if len(st.notes) > st.max {
		st.notes = st.notes[len(st.notes)-st.max:]
	}
	n := len(st.notes)
	st.mu.Unlock()
	// Tell the client, which declared the extension and so handles the
	// notification. It travels before the result: on the connection, or
	// in 2026-07-28 over HTTP on this request's response stream.
	if err := ss.Notify(ctx, NotificationAdded, &AddedParams{Text: p.Text, Count: n}); err != nil {
		return nil, err
	}
	return &AddResult{Count: n}, nil
}

func (st *store) list(ctx context.Context, ss *mcp.ServerSession, p *ListParams) (*ListResult, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return &ListResult{Notes: append([]string{}, st.notes...)}, nil
}

// docs:endregion

// docs:region client
// ServerSettings returns the extension's settings declared by the server
// cs is connected to, or ErrNotSupported.
func ServerSettings(cs *mcp.ClientSession) (Settings, error) {
	caps := cs.ServerCapabilities()
	if caps == nil || caps.Extensions[ExtensionID] == nil {
		return Settings{}, ErrNotSupported
	}
	// The entry arrives as decoded JSON; convert it to Settings. The
	// server is not trusted: decode as the SDK does, with member names
	// matched case-sensitively and duplicates refused (the defaults of
	// github.com/go-json-experiment/json, which the SDK uses).
	var s Settings
	data, err := json.Marshal(caps.Extensions[ExtensionID])
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("notes: malformed settings: %w", err)
	}
	return s, nil
}

// Add adds a note on the server and returns how many it holds.
func Add(ctx context.Context, cs *mcp.ClientSession, text string) (int, error) {
	var res AddResult
	if err := cs.Call(ctx, MethodAdd, &AddParams{Text: text}, &res); err != nil {
		return 0, err
	}
	return res.Count, nil
}

// List returns the server's notes.
func List(ctx context.Context, cs *mcp.ClientSession) ([]string, error) {
	var res ListResult
	if err := cs.Call(ctx, MethodList, &ListParams{}, &res); err != nil {
		return nil, err
	}
	return res.Notes, nil
}

// docs:endregion
