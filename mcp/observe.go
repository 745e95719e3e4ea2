package mcp

import "errors"

// IsInputRequired reports whether err ends a handler, or a server-to-client
// request (Elicit, CreateMessage, ListRoots), that in protocol 2026-07-28
// was answered with an input-required result rather than an error: the
// client answers the question and retries the request. Middleware that
// observes outcomes, such as telemetry, uses it to tell this from a
// failure.
func IsInputRequired(err error) bool { return errors.Is(err, errInputRequired) }
