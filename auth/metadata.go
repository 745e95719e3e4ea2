package auth

// ProtectedResourceMetadata is the OAuth 2.0 Protected Resource Metadata
// document of RFC 9728, which an MCP server publishes so that clients can
// find the authorization servers that issue tokens for it. A server serves
// it (see ProtectedResourceMetadataHandler); a client fetches it during
// discovery.
type ProtectedResourceMetadata struct {
	// Resource is the protected resource's canonical URL; for an MCP server,
	// the URL of its endpoint (for example "https://example.com/mcp").
	Resource string `json:"resource"`
	// AuthorizationServers lists the issuer identifiers of the
	// authorization servers that issue tokens for Resource.
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	// JWKSURI is where the resource publishes its own public keys, if any.
	JWKSURI string `json:"jwks_uri,omitempty"`
	// ScopesSupported lists the scopes a client may request for Resource.
	ScopesSupported []string `json:"scopes_supported,omitempty"`
	// BearerMethodsSupported lists how a token may be presented; MCP
	// servers accept only "header".
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	// ResourceSigningAlgValuesSupported lists the JWS algorithms the
	// resource uses to sign its responses, if it signs them.
	ResourceSigningAlgValuesSupported []string `json:"resource_signing_alg_values_supported,omitempty"`
	// ResourceName is a human-readable name of the resource.
	ResourceName string `json:"resource_name,omitempty"`
	// ResourceDocumentation is a URL of documentation for developers.
	ResourceDocumentation string `json:"resource_documentation,omitempty"`
	// ResourcePolicyURI and ResourceTOSURI are URLs of the resource's
	// policy and terms of service.
	ResourcePolicyURI string `json:"resource_policy_uri,omitempty"`
	ResourceTOSURI    string `json:"resource_tos_uri,omitempty"`
	// TLSClientCertificateBoundAccessTokens tells whether the resource
	// supports mutual-TLS certificate-bound tokens (RFC 8705).
	TLSClientCertificateBoundAccessTokens bool `json:"tls_client_certificate_bound_access_tokens,omitempty"`
	// DPoPSigningAlgValuesSupported lists the JWS algorithms the resource
	// accepts in DPoP proofs (RFC 9449).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	// DPoPBoundAccessTokensRequired tells whether the resource accepts only
	// DPoP-bound tokens.
	DPoPBoundAccessTokensRequired bool `json:"dpop_bound_access_tokens_required,omitempty"`
}

// AuthorizationServerMetadata is the OAuth 2.0 Authorization Server Metadata
// of RFC 8414, also served as an OpenID Connect discovery document. Clients
// read it to find the endpoints of the authorization server; a JWT verifier
// reads it to find the issuer's keys.
type AuthorizationServerMetadata struct {
	// Issuer is the authorization server's issuer identifier. A client must
	// check that it equals, byte for byte, the issuer it asked about.
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint,omitempty"`
	TokenEndpoint         string `json:"token_endpoint,omitempty"`
	JWKSURI               string `json:"jwks_uri,omitempty"`
	RegistrationEndpoint  string `json:"registration_endpoint,omitempty"`
	IntrospectionEndpoint string `json:"introspection_endpoint,omitempty"`
	RevocationEndpoint    string `json:"revocation_endpoint,omitempty"`

	ScopesSupported                            []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported                     []string `json:"response_types_supported,omitempty"`
	ResponseModesSupported                     []string `json:"response_modes_supported,omitempty"`
	GrantTypesSupported                        []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	TokenEndpointAuthSigningAlgValuesSupported []string `json:"token_endpoint_auth_signing_alg_values_supported,omitempty"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported,omitempty"`
	DPoPSigningAlgValuesSupported              []string `json:"dpop_signing_alg_values_supported,omitempty"`

	// AuthorizationResponseIssParameterSupported tells that the server adds
	// "iss" to authorization responses (RFC 9207), which a client then checks.
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported,omitempty"`
	// ClientIDMetadataDocumentSupported tells that the server accepts URLs
	// as client ids, resolved to Client ID Metadata Documents.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported,omitempty"`

	// OpenID Connect discovery fields, present when the document came from
	// /.well-known/openid-configuration.
	UserinfoEndpoint                 string   `json:"userinfo_endpoint,omitempty"`
	SubjectTypesSupported            []string `json:"subject_types_supported,omitempty"`
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported,omitempty"`
}
