package otel

import (
	"os"
	"testing"

	otelapi "go.opentelemetry.io/otel"
)

func TestMain(m *testing.M) {
	// The baggage tests feed malformed baggage on purpose; the
	// OpenTelemetry API reports each to its global error handler, which
	// would log them.
	otelapi.SetErrorHandler(otelapi.ErrorHandlerFunc(func(error) {}))
	os.Exit(m.Run())
}
