package jsonrpc2

import "github.com/gomcp/sdk/strictjson"

// The quickest form of the fast path: one pass of strictjson's Scanner
// over a small, plain message that proves it valid under the strict rules
// (exact names, no duplicate names at any level, valid UTF-8, depth
// bounded as strictjson.CheckDepth bounds it) and finds its members. It
// only ever says "valid" or "not sure": anything it does not handle simply
// (escaped member names, escaped surrogates, objects with many members,
// errors of any kind) goes on to the token reader of envelope.go and, past
// it, to the full decoder, so what is accepted and how errors read do not
// change. FuzzDecodeFast (envelope_test.go) compares the whole path with the
// decoder; FuzzScanner (strictjson) the Scanner.

// scanEnvelope reads the members of the single JSON object data holds
// into m, reporting true only when data is certainly valid under the
// strict rules and m holds its members (strictjson.Scanner). false means
// "not sure": the caller must decide another way.
func scanEnvelope(data []byte, m *messageMembers) bool {
	s, ok := strictjson.ScanObject(data, false)
	if !ok {
		return false
	}
	for {
		name, v, more := s.Member()
		if !more {
			return s.Complete()
		}
		switch string(name) {
		case "jsonrpc":
			m.version = v
		case "id":
			m.id = v
		case "method":
			m.method = v
		case "params":
			m.params = v
		case "result":
			m.result = v
		case "error":
			return false
		}
	}
}
