package main

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// projectPathRefusal tells a client of a team server why its projectPath
// was refused, and what to do instead.
const projectPathRefusal = "projectPath names a directory on the machine pkgdocs runs on; this is a shared server, " +
	"which does not read its own directories for clients: leave projectPath out and pass version"

// refuseProjectPaths is receiving middleware for a team server: a
// tools/call whose arguments name a projectPath is refused as invalid
// params. The path would name a directory of the server, not of the
// agent's project, and reading it would show any holder of a token the
// server's own files (go.mod, node_modules, virtual environments, Swift
// sources).
func refuseProjectPaths(next mcp.MethodHandler[mcp.ServerSession]) mcp.MethodHandler[mcp.ServerSession] {
	return func(ctx context.Context, ss *mcp.ServerSession, method string, params any) (any, error) {
		if p, ok := params.(*mcp.CallToolParams); ok && p != nil && method == mcp.MethodCallTool && namesProjectPath(p.Arguments) {
			return nil, &mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: projectPathRefusal}
		}
		return next(ctx, ss, method, params)
	}
}

// namesProjectPath reports whether a tool's arguments (the raw JSON
// object) give a projectPath that is not empty. The match ignores case,
// so it finds at least what the tools' own case-sensitive decoding does.
func namesProjectPath(args any) bool {
	raw, ok := args.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			return false // the tool's decoding refuses such arguments itself
		}
		raw = b
	}
	var a struct {
		ProjectPath any `json:"projectPath"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return false // not an object: the tool's decoding refuses it
	}
	s, isString := a.ProjectPath.(string)
	return a.ProjectPath != nil && (!isString || strings.TrimSpace(s) != "")
}
