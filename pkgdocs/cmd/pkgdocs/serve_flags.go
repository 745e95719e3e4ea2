package main

import (
	"flag"
	"io"
	"time"
)

// Defaults of the team server's flags.
const (
	defaultScope        = "pkgdocs:read"
	defaultRateLimit    = 10 // requests per second per principal
	defaultRateBurst    = 60
	defaultDrainTimeout = 25 * time.Second // within the 30 s most orchestrators allow
)

// teamOptions are the flags of `pkgdocs serve --http ADDR` that make it a
// server for a team: OAuth, rate limits, the public URL, shutdown and
// logging. With none of the OAuth flags it serves without authorization,
// as for one developer on localhost, a trusted network or behind a proxy
// that authenticates.
type teamOptions struct {
	resource              string
	issuer                string
	introspectionURL      string
	introspectionClientID string
	scope                 string
	rateLimit             float64
	rateBurst             int
	drainTimeout          time.Duration
	drainDelay            time.Duration
	stateless             bool
	logFormat             string
	allowProjectPath      bool
}

// addTeamFlags defines the team server's flags on fs.
func addTeamFlags(fs *flag.FlagSet, o *teamOptions) {
	fs.StringVar(&o.resource, "resource", "", "public URL of the MCP endpoint (https://pkgdocs.example.com/mcp): the audience tokens must name, its path and the only Host it answers to (default: /mcp, localhost only)")
	fs.StringVar(&o.issuer, "issuer", "", "OAuth: URL of the authorization server whose access tokens are accepted (JWTs checked with its published keys); needs --resource")
	fs.StringVar(&o.introspectionURL, "introspection-url", "", "OAuth: check tokens at this introspection endpoint (RFC 7662, opaque tokens) instead; needs --issuer, --introspection-client-id and the secret in "+introspectionSecretEnv)
	fs.StringVar(&o.introspectionClientID, "introspection-client-id", "", "OAuth: client id pkgdocs authenticates with at --introspection-url")
	fs.StringVar(&o.scope, "scope", defaultScope, "OAuth: scope every token must grant (several separated by spaces; empty: any valid token)")
	fs.Float64Var(&o.rateLimit, "rate-limit", defaultRateLimit, "requests per second each user (token subject; without OAuth, client address) may make to the MCP endpoint; 0: no limit")
	fs.IntVar(&o.rateBurst, "rate-burst", defaultRateBurst, "requests a user may make at once before --rate-limit applies")
	fs.DurationVar(&o.drainTimeout, "drain-timeout", defaultDrainTimeout, "on SIGTERM or interrupt, how long answers in flight may take to finish before the server stops")
	fs.DurationVar(&o.drainDelay, "drain-delay", 0, "on SIGTERM, how long to keep answering new requests after /readyz turns 503, so that the load balancer's health checks notice first (part of --drain-timeout)")
	fs.BoolVar(&o.stateless, "stateless", false, "serve clients of protocol versions before 2026-07-28 without sessions, so any instance behind a load balancer answers any request")
	fs.StringVar(&o.logFormat, "log-format", "text", "format of the HTTP server's access log on stderr: text or json")
	fs.BoolVar(&o.allowProjectPath, "allow-project-path", false, "with --resource, still accept the tools' projectPath, a directory on this server (refused by default: a shared server's directories are not its clients' projects)")
}

// defaultTeamOptions returns the team server's flags as they are when
// none is given.
func defaultTeamOptions() teamOptions {
	var o teamOptions
	fs := flag.NewFlagSet("defaults", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addTeamFlags(fs, &o)
	return o
}
