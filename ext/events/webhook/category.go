package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// A Category is the kind of a failed delivery or verification: the value of
// deliveryStatus.lastError and of a CallbackEndpointError's data.reason. It
// says nothing of the response beyond its status class, so that it cannot
// serve as an oracle on the endpoint.
type Category string

// The categories, exactly the ones the events extension lists.
const (
	// CategoryConnectionRefused: no connection was made: the name did not
	// resolve, it resolved only to forbidden addresses, or the connection
	// was refused, reset or unreachable.
	CategoryConnectionRefused Category = "connection_refused"
	// CategoryTimeout: the attempt took longer than its timeout.
	CategoryTimeout Category = "timeout"
	// CategoryTLS: the TLS handshake failed (certificate, protocol).
	CategoryTLS Category = "tls_error"
	// CategoryHTTP4xx: the endpoint answered with a status that is neither
	// 2xx nor 5xx (a 3xx too, since redirects are never followed).
	CategoryHTTP4xx Category = "http_4xx"
	// CategoryHTTP5xx: the endpoint answered with a 5xx status.
	CategoryHTTP5xx Category = "http_5xx"
	// CategoryChallengeFailed: the endpoint answered the verification
	// challenge without echoing the nonce in a 2xx response.
	CategoryChallengeFailed Category = "challenge_failed"
)

// A DeliveryError is how a delivery or a verification challenge failed. Its
// Category is what a server reports; its text, for the server's logs,
// adds the status code and the cause but never the response body.
type DeliveryError struct {
	// Category is the kind of failure.
	Category Category
	// StatusCode is the HTTP status of the last response, or 0 if there
	// was none.
	StatusCode int
	// Attempts is how many attempts were made.
	Attempts int
	err      error
}

var _ error = (*DeliveryError)(nil)

// Error describes the failure.
func (e *DeliveryError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "webhook: delivery failed (%s", e.Category)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ", status %d", e.StatusCode)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, ", %d attempts", e.Attempts)
	}
	b.WriteString(")")
	if e.err != nil {
		b.WriteString(": ")
		b.WriteString(e.err.Error())
	}
	return b.String()
}

// Unwrap returns the cause: a network or TLS error, ErrForbiddenAddress, or
// nil for a status failure.
func (e *DeliveryError) Unwrap() error { return e.err }

// CategoryOf returns the category of err if it is (or wraps) a
// DeliveryError, and "" otherwise: nil, a cancelled context, a body too
// large and an invalid delivery are not outcomes of the endpoint.
func CategoryOf(err error) Category {
	var de *DeliveryError
	if errors.As(err, &de) {
		return de.Category
	}
	return ""
}

// retryable reports whether a delivery that failed so may be tried again:
// every failure may, except the answers 410 Gone and 413 Content Too Large.
func (e *DeliveryError) retryable() bool {
	return e.StatusCode != http.StatusGone && e.StatusCode != http.StatusRequestEntityTooLarge
}

// statusCategory is the category of a non-2xx status.
func statusCategory(code int) Category {
	if code >= 500 && code <= 599 {
		return CategoryHTTP5xx
	}
	return CategoryHTTP4xx
}

// transportCategory is the category of an error of the transport (no
// response).
func transportCategory(err error) Category {
	var (
		netErr  net.Error
		certErr *tls.CertificateVerificationError
		header  tls.RecordHeaderError
		alert   tls.AlertError
		echErr  *tls.ECHRejectionError
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return CategoryTimeout
	case errors.Is(err, ErrForbiddenAddress):
		return CategoryConnectionRefused
	case errors.As(err, &certErr), errors.As(err, &header), errors.As(err, &alert), errors.As(err, &echErr),
		strings.Contains(err.Error(), "tls: "):
		return CategoryTLS
	}
	return CategoryConnectionRefused
}
