// Package auth adds OAuth 2.1 authorization to MCP servers and clients that
// speak streamable HTTP or HTTP+SSE.
//
// On the server side, RequireBearerToken is http middleware that turns a
// bearer (or DPoP-bound) access token into a TokenInfo, which every handler
// reads with TokenInfoFromContext. On the client side, a RoundTripper runs
// discovery, authorization and token refresh for the client transports.
package auth
