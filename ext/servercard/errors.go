package servercard

import (
	"errors"
	"fmt"
	"net/http"
)

// Errors of Fetch, FetchCatalog, Discover and ParseCard, for errors.Is.
var (
	// ErrNotFound reports a card or catalog that is not there: the host
	// answered 404 Not Found or 410 Gone, or a catalog lists no card.
	ErrNotFound = errors.New("servercard: not found")
	// ErrInvalid reports a document that is not a valid card or catalog:
	// not JSON, refused by the schema, or carrying a filled-in secret.
	ErrInvalid = errors.New("servercard: invalid")
	// ErrMediaType reports a response whose Content-Type is not a card's
	// (or a catalog's) media type or application/json.
	ErrMediaType = errors.New("servercard: unexpected media type")
	// ErrTooLarge reports a document larger than the limit.
	ErrTooLarge = errors.New("servercard: document too large")
	// ErrRedirect reports a redirect that was not followed: to another
	// host, from https to http, or one too many.
	ErrRedirect = errors.New("servercard: redirect refused")
	// ErrURL reports a URL that is not fetched: not absolute http(s), with
	// credentials in it, or plain http to a host that is not loopback.
	ErrURL = errors.New("servercard: URL refused")
	// ErrStatus reports an HTTP status other than 200, 304, 404 and 410.
	ErrStatus = errors.New("servercard: unexpected HTTP status")
)

// A StatusError is an HTTP answer that carries no document. errors.Is
// matches it with ErrNotFound (404, 410) or ErrStatus (any other).
type StatusError struct {
	// URL is the URL that answered.
	URL string
	// StatusCode is the HTTP status.
	StatusCode int
}

var _ error = (*StatusError)(nil)

// Error says which URL answered which status.
func (e *StatusError) Error() string {
	kind := ErrStatus
	if e.notFound() {
		kind = ErrNotFound
	}
	return fmt.Sprintf("%v: %s answered %d %s", kind, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
}

// Is reports whether target is ErrNotFound (for 404 and 410) or ErrStatus
// (for any other status).
func (e *StatusError) Is(target error) bool {
	if e.notFound() {
		return target == ErrNotFound
	}
	return target == ErrStatus
}

func (e *StatusError) notFound() bool {
	return e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusGone
}
