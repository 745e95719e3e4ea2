// Command example is the greeter MCP server (one tool, "greet", that
// answers "Hi <name>") instrumented with OpenTelemetry: every request gets
// a span and a duration measurement named by the MCP semantic conventions,
// and a client's trace context in params._meta makes the server's spans
// children of the client's.
//
// Exporters are chosen by the standard environment variables:
// OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER ("otlp", the default,
// "console" or "none"), OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES and
// OTEL_EXPORTER_OTLP_* for the OTLP endpoint and protocol.
//
// It serves MCP over stdin and stdout, and exits 0 when its input closes;
// with -http ADDR it serves streamable HTTP at http://ADDR/mcp instead,
// until interrupted. Spans and metrics still buffered are exported before
// it exits, on SIGINT or SIGTERM too. Over stdio, stdout carries the
// protocol, so the console exporter is refused there:
//
//	OTEL_TRACES_EXPORTER=console OTEL_METRICS_EXPORTER=none go run ./otel/example -http localhost:8080
//	OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 go run ./otel/example
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gomcp/sdk/mcp"
	mcpotel "github.com/gomcp/sdk/otel"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// run is the program: it returns the exit code.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	logger := log.New(stderr, "example: ", 0)
	flags := flag.NewFlagSet("example", flag.ContinueOnError)
	flags.SetOutput(stderr)
	httpAddr := flags.String("http", "", "serve streamable HTTP at this address (path /mcp) instead of stdio")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *httpAddr == "" {
		if name, ok := consoleExporter(); ok {
			logger.Printf("%s=console would print telemetry to stdout, which carries the MCP protocol over stdio: "+
				"serve HTTP with -http ADDR, or choose another exporter (otlp or none)", name)
			return 2
		}
	}
	shutdown, err := setupTelemetry(ctx)
	if err != nil {
		logger.Print(err)
		return 1
	}
	defer func() {
		// Export what is still buffered; the signal context may be done.
		flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(flush); err != nil {
			logger.Printf("flushing telemetry: %v", err)
		}
	}()
	server := newServer()
	if *httpAddr != "" {
		err = serveHTTP(ctx, *httpAddr, server, logger)
	} else {
		err = server.Run(ctx, mcp.NewStdIOTransport())
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Print(err)
		return 1
	}
	return 0
}

// consoleExporter reports which exporter variable, if any, names the
// console exporter.
func consoleExporter() (string, bool) {
	for _, name := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER", "OTEL_LOGS_EXPORTER"} {
		for _, v := range strings.Split(os.Getenv(name), ",") {
			if strings.TrimSpace(v) == "console" {
				return name, true
			}
		}
	}
	return "", false
}

// docs:region setup
// setupTelemetry installs the global tracer and meter providers, with the
// exporters the environment names, and the W3C propagators. It returns
// the function that flushes and stops them.
func setupTelemetry(ctx context.Context) (func(context.Context) error, error) {
	spans, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, fmt.Errorf("span exporter: %w", err)
	}
	reader, err := autoexport.NewMetricReader(ctx)
	if err != nil {
		_ = spans.Shutdown(ctx)
		return nil, fmt.Errorf("metric reader: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	otelapi.SetTracerProvider(tp)
	otelapi.SetMeterProvider(mp)
	otelapi.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}, nil
}

// docs:endregion

// docs:region server
// newServer returns the greeter, instrumented with the global providers.
func newServer() *mcp.Server {
	server := mcp.NewServer("greeter", "v1.0.0", nil)
	mcpotel.InstrumentServer(server, nil)
	server.AddTools(mcp.NewTool("greet", "say hi", greet,
		mcp.Input(mcp.Property("name", mcp.Description("who to greet")))))
	return server
}

// docs:endregion

// greetArgs are the arguments of greet.
type greetArgs struct {
	Name string `json:"name"`
}

func greet(ctx context.Context, ss *mcp.ServerSession, args greetArgs) ([]*mcp.Content, error) {
	return []*mcp.Content{mcp.NewTextContent("Hi " + args.Name)}, nil
}

// serveHTTP serves server over streamable HTTP at http://addr/mcp until ctx
// is done. The handler accepts only localhost Host headers by default.
func serveHTTP(ctx context.Context, addr string, server *mcp.Server, logger *log.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = handler.Close() // ends open streams, so Shutdown need not wait for them
		_ = srv.Shutdown(shutdown)
	}()
	logger.Printf("serving MCP at http://%s/mcp", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
