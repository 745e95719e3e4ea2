package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/gomcp/sdk/mcp"
	mcpotel "github.com/gomcp/sdk/otel"
	"github.com/gomcp/sdk/pkgdocs/internal/mcpserver"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
)

// serve runs the MCP server: over stdin and stdout until the client closes
// its input, or, with o.httpAddr, over streamable HTTP as a team server
// until ctx ends, then drains it.
func serve(ctx context.Context, svc *service.Service, o options, stderr io.Writer) error {
	server := mcpserver.New(svc, buildVersion(), nil)
	if o.httpAddr == "" {
		if o.team != defaultTeamOptions() {
			return errors.New("the team server's flags (--resource, --issuer, --rate-limit...) need --http ADDR")
		}
		err := server.Run(ctx, mcp.NewStdIOTransport())
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	return serveHTTP(ctx, server, o.httpAddr, o.team, stderr)
}

// serveHTTP serves server at addr (see teamServer) until ctx ends, with
// telemetry when the OpenTelemetry environment variables ask for it.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string, opts teamOptions, stderr io.Writer) error {
	logger, err := newLogger(opts.logFormat, stderr)
	if err != nil {
		return err
	}
	if telemetryWanted(os.Getenv) {
		shutdown, err := setupTelemetry(ctx)
		if err != nil {
			return err
		}
		defer func() {
			// Export what is still buffered; ctx is done by now.
			flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := shutdown(flush); err != nil {
				logger.Warn("flushing telemetry", "err", err)
			}
		}()
		mcpotel.InstrumentServer(server, nil) // before the team server's middleware, so that spans cover it
	}
	ts, err := newTeamServer(server, teamConfig{teamOptions: opts, introspectionSecret: os.Getenv(introspectionSecretEnv), logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pkgdocs: serving MCP at %s\n", ts.url(ln.Addr()))
	return ts.run(ctx, ln)
}
