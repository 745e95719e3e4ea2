// Package otel instruments MCP servers and clients with OpenTelemetry.
package otel
