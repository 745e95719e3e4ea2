package mcp

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// An HTTPStatusError reports an HTTP response that a client transport
// (streamable HTTP or SSE) could not pass on as an MCP message: the server
// or a proxy in front of it refused the request at the HTTP level. It is
// the error of the call, or of Connect, in every protocol era. A program
// tests for it with errors.As:
//
//	var herr *mcp.HTTPStatusError
//	if errors.As(err, &herr) && herr.StatusCode == http.StatusUnauthorized {
//		// get a token, from herr.WWWAuthenticate's resource_metadata
//	}
//
// A 401 or 403 ends Connect with this error at once: the client does not
// fall back from server/discover to initialize, whose answer would be the
// same refusal.
type HTTPStatusError struct {
	// Method is the HTTP method of the refused request (POST or GET).
	Method string
	// URL is the URL the request went to.
	URL string
	// StatusCode is the response's status code, such as 401.
	StatusCode int
	// Status is the response's status line, such as "401 Unauthorized".
	Status string
	// WWWAuthenticate holds the response's WWW-Authenticate challenges, as
	// a server answers 401 and 403 (RFC 6750, RFC 9728), one per header
	// line.
	WWWAuthenticate []string
	// Body is the start of the response body (up to 512 bytes), trimmed,
	// for the error message.
	Body string
}

var _ error = (*HTTPStatusError)(nil)

// Error describes the refusal: method, URL, status, and the challenge or
// the body.
func (e *HTTPStatusError) Error() string {
	msg := fmt.Sprintf("mcp: %s %s: %s", e.Method, e.URL, e.Status)
	for _, c := range e.WWWAuthenticate {
		msg += "; WWW-Authenticate: " + c
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// maxErrorBodyShown bounds HTTPStatusError.Body.
const maxErrorBodyShown = 512

// httpStatusError makes the error of resp, a refusal of req, whose body
// (the start of it, if body is nil) is read here.
func httpStatusError(req *http.Request, resp *http.Response, body []byte) *HTTPStatusError {
	if body == nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyShown)) // what arrived, if the read fails
	}
	body = bytes.TrimSpace(body[:min(len(body), maxErrorBodyShown)])
	method, url := "", ""
	if req != nil {
		method, url = req.Method, req.URL.String()
	}
	return &HTTPStatusError{
		Method:          method,
		URL:             url,
		StatusCode:      resp.StatusCode,
		Status:          resp.Status,
		WWWAuthenticate: resp.Header.Values("WWW-Authenticate"),
		Body:            string(body),
	}
}

// refusesCredentials reports whether status says the request's
// credentials are missing, invalid or insufficient: no other request on
// the connection will fare better.
func refusesCredentials(status int) bool {
	return status == http.StatusUnauthorized || status == http.StatusForbidden
}
