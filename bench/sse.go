package bench

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrNoResponse reports a response body with no JSON-RPC message in it.
var ErrNoResponse = errors.New("no JSON-RPC message in response body")

// FirstSSEData returns the data of the first event with data in an SSE
// stream (text/event-stream), joining multi-line data with "\n" as the
// HTML Living Standard specifies. It understands LF, CRLF and CR line ends,
// comments and the other fields, which it ignores. It returns ErrNoResponse
// if no event carries data.
func FirstSSEData(body []byte) ([]byte, error) {
	data, _, err := nextSSEData(body)
	return data, err
}

// firstSSEMessage is FirstSSEData past events whose data is empty, such as
// the priming event (an id, no message) that a resumable stream starts with.
func firstSSEMessage(body []byte) ([]byte, error) {
	for {
		data, rest, err := nextSSEData(body)
		if err != nil || len(data) > 0 {
			return data, err
		}
		body = rest
	}
}

// nextSSEData returns the data of the first event with data in body, as
// FirstSSEData, and what follows that event.
func nextSSEData(body []byte) (data, rest []byte, err error) {
	hasData := false
	for len(body) > 0 {
		line, after := cutLine(body)
		body = after
		if len(line) == 0 { // blank line: the event ends
			if hasData {
				return data, body, nil
			}
			continue
		}
		if line[0] == ':' { // comment
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		if string(field) != "data" {
			continue
		}
		if hasData {
			data = append(data, '\n')
		}
		data = append(data, value...)
		hasData = true
	}
	if hasData { // an event cut off at the end of the body still counts
		return data, nil, nil
	}
	return nil, nil, fmt.Errorf("%w: SSE stream without data", ErrNoResponse)
}

// cutLine splits b after its first line end (LF, CRLF or CR).
func cutLine(b []byte) (line, rest []byte) {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return b, nil
	}
	if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		return b[:i], b[i+2:]
	}
	return b[:i], b[i+1:]
}
