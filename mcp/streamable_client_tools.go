package mcp

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Client side of x-mcp-header (2026-07-28, transports/streamable-http,
// "Custom Headers from Tool Parameters"): the client learns from tools/list
// which arguments of each tool to mirror into Mcp-Param-* headers, and
// drops the tools whose annotations are invalid.

// filterTools reads a tools/list result: it records the header bindings of
// each tool and returns the result without the tools whose x-mcp-header
// annotations break the rules. The result is returned unchanged when every
// tool is valid.
func (c *streamableClientConn) filterTools(result []byte) []byte {
	var page map[string]jsontext.Value
	if strictjson.Unmarshal(result, &page) != nil {
		return result
	}
	var tools []jsontext.Value
	if strictjson.UnmarshalTrusted(page["tools"], &tools) != nil {
		return result
	}
	kept := tools[:0:0]
	bindings := map[string][]headerBinding{}
	for _, raw := range tools {
		var t struct {
			Name        string         `json:"name"`
			InputSchema jsontext.Value `json:"inputSchema"`
		}
		if strictjson.UnmarshalTrusted(raw, &t) != nil {
			kept = append(kept, raw)
			continue
		}
		b, err := clientHeaderBindings(t.InputSchema)
		if err != nil {
			slog.Warn("mcp: dropping tool with an invalid x-mcp-header annotation", "tool", t.Name, "reason", err)
			continue
		}
		bindings[t.Name] = b
		kept = append(kept, raw)
	}
	c.mu.Lock()
	if c.tools == nil {
		c.tools = map[string][]headerBinding{}
	}
	for name, b := range bindings {
		c.tools[name] = b
	}
	c.mu.Unlock()
	if len(kept) == len(tools) {
		return result
	}
	enc, err := strictjson.Marshal(kept)
	if err != nil {
		return result
	}
	page["tools"] = enc
	out, err := strictjson.Marshal(page)
	if err != nil {
		return result
	}
	return out
}

// clientHeaderBindings checks every x-mcp-header annotation of a tool's
// input schema and returns its bindings, or why the tool is invalid.
func clientHeaderBindings(schema []byte) ([]headerBinding, error) {
	if len(schema) == 0 || !strings.Contains(string(schema), "x-mcp-header") {
		return nil, nil
	}
	var root any
	if err := strictjson.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	v := &headerValidator{seen: map[string]bool{}}
	v.walk(root, nil, true)
	return v.out, v.err
}

// headerValidator walks a schema for x-mcp-header annotations.
type headerValidator struct {
	out  []headerBinding
	seen map[string]bool // lower-case header names
	err  error
}

// walk visits a schema node. reachable reports whether the node is reached
// from the root through "properties" alone; path is then its property
// path.
func (v *headerValidator) walk(node any, path []string, reachable bool) {
	if v.err != nil {
		return
	}
	switch n := node.(type) {
	case []any:
		for _, item := range n {
			v.walk(item, nil, false)
		}
	case map[string]any:
		if hv, ok := n["x-mcp-header"]; ok {
			v.annotation(n, hv, path, reachable)
		}
		for key, val := range n {
			switch key {
			case "properties":
				props, _ := val.(map[string]any)
				for name, sub := range props {
					p := append(path[:len(path):len(path)], name)
					v.walk(sub, p, reachable)
				}
			case "const", "enum", "default", "examples", "x-mcp-header":
				// values, not schemas
			default:
				v.walk(val, nil, false)
			}
		}
	}
}

// annotation checks one x-mcp-header annotation.
func (v *headerValidator) annotation(node map[string]any, hv any, path []string, reachable bool) {
	name, _ := hv.(string)
	switch {
	case !reachable || len(path) == 0:
		v.err = errors.New("x-mcp-header on a property not reachable from the root through properties alone")
	case name == "":
		v.err = fmt.Errorf("x-mcp-header of %q must be a non-empty string", strings.Join(path, "."))
	case !isToken(name):
		v.err = fmt.Errorf("x-mcp-header %q is not an HTTP field-name token", name)
	case v.seen[strings.ToLower(name)]:
		v.err = fmt.Errorf("x-mcp-header %q is not unique", name)
	default:
		switch typ, _ := node["type"].(string); typ {
		case "string", "integer", "boolean":
		default:
			v.err = fmt.Errorf("x-mcp-header %q on a property of type %q; only string, integer and boolean are allowed", name, typ)
			return
		}
		v.seen[strings.ToLower(name)] = true
		v.out = append(v.out, headerBinding{header: name, path: path})
	}
}

// isToken reports whether s is an RFC 9110 token (1*tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// maxSafeInteger is the largest integer x-mcp-header values may carry
// (JavaScript's Number.MAX_SAFE_INTEGER).
const maxSafeInteger = 1<<53 - 1

// safeInteger reports whether f is an integer in the safe range.
func safeInteger(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger
}
