package auth

import (
	"context"
	"errors"
)

// A TokenVerifier checks an access token presented to the server and
// describes it. It is called with the token exactly as the client sent it
// (without the "Bearer " or "DPoP " prefix) and must check everything that
// makes the token acceptable at this server: signature or introspection,
// issuer, audience (this server's canonical URL, RFC 8707) and lifetime.
//
// A token that is not acceptable yields an error wrapping ErrInvalidToken,
// whose text is sent to the client as error_description (so it must not
// carry secrets). An error wrapping ErrUnavailable means the verifier could
// not decide (its authorization server is down); the client gets 503. Any
// other error counts as an invalid token.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*TokenInfo, error)
}

// TokenVerifierFunc adapts a function to TokenVerifier.
type TokenVerifierFunc func(ctx context.Context, token string) (*TokenInfo, error)

var _ TokenVerifier = TokenVerifierFunc(nil)

// VerifyToken calls f(ctx, token).
func (f TokenVerifierFunc) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	return f(ctx, token)
}

// Sentinel errors of token verification.
var (
	// ErrInvalidToken reports a token that is malformed, badly signed,
	// expired, not yet valid, from another issuer, for another audience,
	// or signed by an unknown key. The client gets 401 invalid_token.
	ErrInvalidToken = errors.New("invalid token")
	// ErrUnavailable reports that a token could not be checked because a
	// service the verifier depends on (metadata, JWKS, introspection) did
	// not answer in time or answered badly. The client gets 503.
	ErrUnavailable = errors.New("token verification unavailable")
)

// invalid returns an error wrapping ErrInvalidToken with a short
// description for the client.
func invalid(desc string) error { return &tokenError{desc: desc, kind: ErrInvalidToken} }

// unavailable returns an error wrapping ErrUnavailable.
func unavailable(desc string, cause error) error {
	return &tokenError{desc: desc, kind: ErrUnavailable, cause: cause}
}

// A tokenError is a verification failure with a description that is safe
// to show to the client; the cause, if any, is for logs only.
type tokenError struct {
	desc  string
	kind  error
	cause error
}

var _ error = (*tokenError)(nil)

func (e *tokenError) Error() string {
	if e.cause != nil {
		return e.desc + ": " + e.cause.Error()
	}
	return e.desc
}

func (e *tokenError) Is(target error) bool { return target == e.kind }

func (e *tokenError) Unwrap() error { return e.cause }

// description returns the client-facing text of a verification error.
func description(err error) string {
	if re, ok := err.(*redactedError); ok {
		return re.desc
	}
	var te *tokenError
	if errors.As(err, &te) {
		return te.desc
	}
	return err.Error()
}
