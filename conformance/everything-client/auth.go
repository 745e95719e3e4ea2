package main

import (
	"context"
	"fmt"
)

// authScenarios are the suite's authorization scenarios (both suite
// versions). Each ends with the client listing tools and calling test-tool;
// before that the mock server demands OAuth 2.1 authorization.
var authScenarios = []string{
	"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
	"auth/scope-step-up", "auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
	"auth/pre-registration",
	"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
	"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing", "auth/iss-wrong-issuer",
	"auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
	"auth/client-credentials-jwt", "auth/client-credentials-basic",
	"auth/enterprise-managed-authorization", "auth/cross-app-access-complete-flow",
	"auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer",
}

// authenticated runs an authorization scenario: connect, list tools and
// call test-tool. The SDK has no OAuth client yet (a later issue), so
// against the suite's mock servers the connection is refused with 401 and
// the scenario fails; conformance/baseline.yml expects that.
func authenticated(ctx context.Context, env *scenarioEnv) error {
	cs, err := connect(ctx, env, nil)
	if err != nil {
		return fmt.Errorf("%w (the OAuth client is not implemented yet)", err)
	}
	defer cs.Close()
	if _, err := tools(ctx, cs); err != nil {
		return err
	}
	_, err = call(ctx, cs, "test-tool", map[string]any{})
	return err
}
