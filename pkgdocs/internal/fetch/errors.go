package fetch

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Sentinel errors callers test with errors.Is.
var (
	// ErrNotFound reports a 404 or 410 from upstream (or a missing local file).
	ErrNotFound = errors.New("not found")
	// ErrUnauthorized reports a 401 or 403 from upstream.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrRateLimited reports a 429 that did not clear within the retry budget.
	ErrRateLimited = errors.New("rate limited")
	// ErrTooLarge reports a response body over the configured limit.
	ErrTooLarge = errors.New("response too large")
	// ErrUpstream reports a 5xx answer that persisted after retries.
	ErrUpstream = errors.New("upstream error")
)

// StatusError is an unsuccessful HTTP answer.
type StatusError struct {
	URL        string        // request URL, credentials redacted
	Code       int           // HTTP status code
	RetryAfter time.Duration // parsed Retry-After, if any
	Body       string        // first bytes of the body, for diagnostics
}

// Error describes the failed request: URL, status and any Retry-After.
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("GET %s: %d %s", e.URL, e.Code, http.StatusText(e.Code))
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return msg
}

// Is lets errors.Is match a StatusError against the sentinel errors.
func (e *StatusError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Code == http.StatusNotFound || e.Code == http.StatusGone
	case ErrUnauthorized:
		return e.Code == http.StatusUnauthorized || e.Code == http.StatusForbidden
	case ErrRateLimited:
		return e.Code == http.StatusTooManyRequests
	case ErrUpstream:
		return e.Code >= 500
	}
	return false
}

// IsTransient reports whether err is worth retrying later and must not be
// cached: timeouts, network failures, 429 and 5xx answers.
func IsTransient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrRateLimited) || errors.Is(err, ErrUpstream) {
		return true
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrOffline) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var se *StatusError
	if errors.As(err, &se) {
		return false
	}
	// Context deadlines and unclassified transport failures.
	return true
}
