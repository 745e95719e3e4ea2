package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// telemetryVars are the standard OpenTelemetry environment variables
// that ask for telemetry. With none of them set, the team server exports
// nothing: an unconfigured OTLP exporter would only log failures to
// reach localhost:4318.
var telemetryVars = []string{
	"OTEL_TRACES_EXPORTER",
	"OTEL_METRICS_EXPORTER",
	"OTEL_EXPORTER_OTLP_ENDPOINT",
	"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
	"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
}

// telemetryWanted reports whether the environment (read with getenv)
// asks for telemetry: one of telemetryVars is set and OTEL_SDK_DISABLED
// is not "true".
func telemetryWanted(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	for _, v := range telemetryVars {
		if getenv(v) != "" {
			return true
		}
	}
	return false
}

// setupTelemetry installs the global tracer and meter providers with the
// exporters the standard environment variables choose (as otel/example
// does: OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER "otlp", "console",
// "none", or "prometheus" for metrics; OTEL_EXPORTER_OTLP_* for the
// endpoint and protocol; OTEL_SERVICE_NAME, default "pkgdocs", and
// OTEL_RESOURCE_ATTRIBUTES), and the W3C propagators. It returns the
// function that flushes and stops them.
func setupTelemetry(ctx context.Context) (func(context.Context) error, error) {
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "pkgdocs")),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	spans, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, fmt.Errorf("span exporter: %w", err)
	}
	reader, err := autoexport.NewMetricReader(ctx)
	if err != nil {
		_ = spans.Shutdown(ctx)
		return nil, fmt.Errorf("metric reader: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans), sdktrace.WithResource(res))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithResource(res))
	otelapi.SetTracerProvider(tp)
	otelapi.SetMeterProvider(mp)
	otelapi.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}, nil
}
