package auth

import (
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Token is an OAuth access token with what a client needs to use and renew
// it. Its String and LogValue methods never show the token values.
type Token struct {
	// AccessToken is the token sent to the MCP server.
	AccessToken string `json:"access_token"`
	// TokenType is "Bearer" or "DPoP" (RFC 9449).
	TokenType string `json:"token_type"`
	// RefreshToken, if not empty, renews the access token.
	RefreshToken string `json:"refresh_token,omitempty"`
	// Expiry is when the access token expires; zero if unknown.
	Expiry time.Time `json:"expiry,omitzero"`
	// Scopes are the scopes granted (or, when the server did not say, the
	// scopes requested).
	Scopes []string `json:"scopes,omitempty"`
	// Issuer is the authorization server that issued the token, and
	// ClientID the client it was issued to; a refresh goes there.
	Issuer   string `json:"issuer,omitempty"`
	ClientID string `json:"client_id,omitempty"`
	// Resource is the protected resource (RFC 8707) the token is for.
	Resource string `json:"resource,omitempty"`
}

// String describes t without its secrets.
func (t *Token) String() string {
	if t == nil {
		return "<nil token>"
	}
	return fmt.Sprintf("%s token for %s from %s (scopes %q, expires %s, refreshable %t)",
		t.TokenType, t.Resource, t.Issuer, strings.Join(t.Scopes, " "), t.Expiry.Format(time.RFC3339), t.RefreshToken != "")
}

// LogValue makes slog show t without its secrets.
func (t *Token) LogValue() slog.Value {
	if t == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(
		slog.String("type", t.TokenType), slog.String("issuer", t.Issuer), slog.String("resource", t.Resource),
		slog.Any("scopes", t.Scopes), slog.Time("expiry", t.Expiry), slog.Bool("refreshable", t.RefreshToken != ""))
}

// Valid reports whether t has an access token that does not expire within
// skew of now.
func (t *Token) Valid(now time.Time, skew time.Duration) bool {
	return t != nil && t.AccessToken != "" && (t.Expiry.IsZero() || now.Add(skew).Before(t.Expiry))
}

// tokenResponse is the successful token response of RFC 6749 section 5.1,
// with RFC 8693's issued_token_type.
type tokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in,omitempty"`
	RefreshToken    string `json:"refresh_token,omitempty"`
	Scope           string `json:"scope,omitempty"`
	IssuedTokenType string `json:"issued_token_type,omitempty"`
}

// OAuthError is an error response of an authorization server (RFC 6749
// section 5.2) or an error in an authorization response (section 4.1.2.1).
// Callers test Code (for example "invalid_grant" or "invalid_client").
type OAuthError struct {
	// StatusCode is the HTTP status of the response, 0 for a redirect.
	StatusCode int
	// Code is the "error" member, such as "invalid_grant".
	Code string
	// Description is the "error_description" member, if any.
	Description string
	// Endpoint names the endpoint that answered ("token", "registration"...).
	Endpoint string
}

var _ error = (*OAuthError)(nil)

// Error describes the error; the description is quoted because it comes
// from the server.
func (e *OAuthError) Error() string {
	s := fmt.Sprintf("auth: %s endpoint: %s", e.Endpoint, e.Code)
	if e.StatusCode != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	if e.Description != "" {
		s += fmt.Sprintf(": %q", truncate(e.Description, 200))
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
