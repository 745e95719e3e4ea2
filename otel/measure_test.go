package otel

import (
	"context"
	"fmt"
	"testing"

	"github.com/gomcp/sdk/mcp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
)

// A measurement's attribute set is made once per distinct set of
// attributes and shared by every operation with the same key; making it
// again costs nothing on this package's side. The cache is bounded: past
// maxCached distinct keys, sets are made each time and not kept.
func TestMeasurementAttributeSetCached(t *testing.T) {
	in := newInstruments(&Options{MeterProvider: metricnoop.NewMeterProvider()}, metricServerSession)
	p := peer{protocolVersion: mcp.Version20260728, transport: "tcp", protocolName: "http", protocolVer: "1.1", address: "10.0.0.1", port: 4000}
	op := func(tool string) *operation {
		return &operation{ctx: context.Background(), d: &in.incoming, method: mcp.MethodCallTool,
			params: &mcp.CallToolParams{Name: tool}, peer: p, metrics: true}
	}
	a, b := op("echo"), op("echo")
	a.record(0.001, "", "")
	b.record(0.002, "", "")
	key := a.key("", "")
	first := in.incoming.statics.entries[key].record
	if len(first) != 1 {
		t.Fatalf("cached options %v, want one WithAttributeSet", first)
	}
	if allocs := testing.AllocsPerRun(100, func() { b.record(0.003, "", "") }); allocs != 0 && !raceEnabled {
		t.Errorf("a measurement with a cached set: %.0f allocations, want 0", allocs)
	}
	if again := in.incoming.statics.entries[key].record; &again[0] != &first[0] {
		t.Error("the cached set was made again")
	}

	for i := range maxCached + 10 {
		op(fmt.Sprint("tool-", i)).record(0.001, "", "")
	}
	if n := len(in.incoming.statics.entries); n != maxCached {
		t.Errorf("%d sets cached after %d distinct tools, want the bound %d", n, maxCached+11, maxCached)
	}
	// Unknown tools whose calls fail share the one "_OTHER" set.
	in = newInstruments(&Options{MeterProvider: metricnoop.NewMeterProvider()}, metricServerSession)
	for i := range 50 {
		o := op(fmt.Sprint("unknown-", i))
		o.record(0.001, "-32602", "-32602")
		if got := o.target("-32602"); got != errorTypeOther {
			t.Fatalf("target of a failed call to an unknown tool = %q, want _OTHER", got)
		}
	}
	if n := len(in.incoming.statics.entries); n != 1 {
		t.Errorf("%d sets cached for 50 failed calls to unknown tools, want 1", n)
	}
}

// An initialize's measurement carries the protocol version its result
// settled, though the operation began without one.
func TestInitializeMeasurementVersion(t *testing.T) {
	tm := newTelemetry(t)
	server, client := pair(tm, "2025-11-25")
	connect(t, server, client)
	var n int
	for _, dp := range tm.histogram(t, "mcp.client.operation.duration") {
		a := attrs(dp.Attributes.ToSlice())
		if a["mcp.method.name"] != "initialize" {
			continue
		}
		n += int(dp.Count)
		if a["mcp.protocol.version"] != "2025-11-25" {
			t.Errorf("initialize measurement: attributes %v, want mcp.protocol.version 2025-11-25", a)
		}
	}
	if n != 1 {
		t.Errorf("%d initialize measurements, want 1", n)
	}
}
