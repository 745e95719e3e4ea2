package auth

import (
	"strings"
	"unsafe"

	"github.com/gomcp/sdk/mcp"
)

// scanOperationsDirect is the direct path of peekOperations: it reads a
// message or a batch whose method, name and uri are plain strings (no
// escapes) and whose objects are small and shallow, without a tokenizer.
// It reports false, with ops as given, when the jsontext scan must decide
// (which also refuses what is malformed); FuzzScanOperationsDirect checks
// that both read the same operations. The names and URIs it returns are
// read in place: they share body's memory.
func scanOperationsDirect(body []byte, ops []operation) ([]operation, bool) {
	n := len(ops)
	// The scanner reads body in place; every string it keeps is copied.
	sc := jsonScanner{s: unsafe.String(unsafe.SliceData(body), len(body)), ok: true}
	sc.ws()
	switch sc.peek() {
	case '[':
		sc.i++
		sc.ws()
		if sc.peek() == ']' {
			sc.i++
			break
		}
		for sc.ok {
			sc.ws()
			ops = sc.message(ops)
			sc.ws()
			if sc.peek() == ',' {
				sc.i++
				continue
			}
			sc.byte(']')
			break
		}
	case '{':
		ops = sc.message(ops)
	default:
		return ops[:n], false
	}
	sc.ws()
	if !sc.ok || sc.i != len(sc.s) {
		return ops[:n], false
	}
	return ops, true
}

// message reads one JSON-RPC message object, appending its operation.
func (sc *jsonScanner) message(ops []operation) []operation {
	if sc.peek() != '{' {
		sc.fail()
		return ops
	}
	var op operation
	sc.members(1, func(name string) {
		switch name {
		case "method":
			if sc.peek() == '"' {
				op.method = methodName(sc.str())
			} else {
				sc.skip(2)
			}
		case "params":
			if sc.peek() != '{' {
				sc.skip(2)
				return
			}
			sc.members(2, func(name string) {
				switch {
				case name == "name" && sc.peek() == '"':
					op.name = sc.str() // aliases body: see peekOperations
				case name == "uri" && sc.peek() == '"':
					op.uri = sc.str()
				default:
					sc.skip(3)
				}
			})
		default:
			sc.skip(2)
		}
	})
	if !sc.ok || op.method == "" {
		return ops
	}
	return append(ops, op)
}

// methodName returns a copy of m, without allocating for the methods a
// client calls most.
func methodName(m string) string {
	switch m {
	case mcp.MethodCallTool:
		return mcp.MethodCallTool
	case mcp.MethodReadResource:
		return mcp.MethodReadResource
	case mcp.MethodGetPrompt:
		return mcp.MethodGetPrompt
	case mcp.MethodListTools:
		return mcp.MethodListTools
	}
	return strings.Clone(m)
}
