package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The headline chart: the comparisons the README shows first, drawn as an
// SVG (chart_svg.go) from the medians BENCHMARKS.md lists, either of a
// run's store or read back from a BENCHMARKS.md (figures_markdown.go).

// figures gives the median of a figure: group as group.name(), a target,
// and a unit.
type figures interface {
	figure(group, target, unit string) (float64, bool)
}

// A panelSpec is one comparison of the chart: one figure of the same
// targets in one or more groups (a row each).
type panelSpec struct {
	title   string
	unit    string
	higher  bool        // higher is better
	rows    [][2]string // row label, group name
	targets []string
}

// headline is what the chart compares, in order.
var headline = []panelSpec{
	{"tools/call over streamable HTTP, 64 clients: calls/s", "calls/s", true,
		[][2]string{{"protocol 2025-11-25", "HTTPLoad/raw/legacy/c64"}, {"protocol 2026-07-28", "HTTPLoad/raw/modern/c64"}},
		[]string{ours, "gosdk", "mcpgo", ceiling}},
	{"A tools list change to 10,000 open streams: p99 delivery", "p99-ns", false,
		[][2]string{{"protocol 2025-11-25", "Fanout/tools/legacy/n10000"}, {"protocol 2026-07-28", "Fanout/tools/modern/n10000"}},
		[]string{ours, "gosdk", "mcpgo", ceiling}},
	{"In-process tools/call (in memory, one caller): time per call", "ns/op", false,
		[][2]string{{"protocol 2025-11-25", "CallTool/memory/legacy/seq"}, {"protocol 2026-07-28", "CallTool/memory/modern/seq"}},
		[]string{ours, "gosdk", "mcpgo"}},
	{"Cold start of a stdio greeter (exec to the tools/list answer)", "ns/op", false,
		[][2]string{{"", "ColdStart"}},
		[]string{ours, "gosdk", "mcpgo"}},
}

// displayName is how the chart names a target.
var displayName = map[string]string{
	ours:    "gomcp",
	"gosdk": "go-sdk",
	"mcpgo": "mcp-go",
	ceiling: "net/http",
}

// A chart is the headline figures, ready to draw.
type chart struct {
	source string // where the figures come from, one line
	panels []chartPanel
}

type chartPanel struct {
	title  string
	unit   string
	higher bool
	rows   []chartRow
	max    float64 // the largest value of the panel, the bars' scale
}

type chartRow struct {
	label string
	bars  []chartBar
}

// A chartBar is one target's figure; ok is false when it was not measured.
type chartBar struct {
	target string // as the report names it
	name   string // as the chart shows it
	value  float64
	text   string // the value as BENCHMARKS.md writes it
	ok     bool
}

// buildChart gathers the headline figures from f.
func buildChart(f figures, source string) chart {
	c := chart{source: source}
	for _, spec := range headline {
		p := chartPanel{title: spec.title, unit: spec.unit, higher: spec.higher}
		for _, row := range spec.rows {
			r := chartRow{label: row[0]}
			for _, t := range spec.targets {
				b := chartBar{target: t, name: displayName[t]}
				if v, ok := f.figure(row[1], t, spec.unit); ok && v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
					b.value, b.text, b.ok = v, formatValue(spec.unit, v), true
					p.max = max(p.max, v)
				}
				r.bars = append(r.bars, b)
			}
			p.rows = append(p.rows, r)
		}
		c.panels = append(c.panels, p)
	}
	return c
}

// storeFigures reads the figures of a run. Each median goes through the
// text BENCHMARKS.md writes for it, so that the chart of a run and the
// chart read back from its BENCHMARKS.md are the same bytes.
type storeFigures struct{ s *store }

func (f storeFigures) figure(group, target, unit string) (float64, bool) {
	name := "Benchmark" + group + "/" + target
	if _, failed := f.s.fails[name]; failed {
		return 0, false
	}
	v, ok := f.s.median(name, unit)
	if !ok {
		return 0, false
	}
	v, err := parseValue(formatValue(unit, v))
	return v, err == nil
}

// valueScales are the suffixes formatValue writes, with what they multiply.
var valueScales = map[string]float64{
	"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9,
	"B": 1, "KiB": 1024, "MiB": 1024 * 1024,
}

// parseValue reads back a figure as formatValue writes it: a number,
// followed by a space and a unit of time or size if any ("3.59 ms",
// "1.5 KiB", "54982").
func parseValue(text string) (float64, error) {
	num, suffix, hasSuffix := strings.Cut(strings.TrimSpace(text), " ")
	scale := 1.0
	if hasSuffix {
		s, ok := valueScales[suffix]
		if !ok {
			return 0, fmt.Errorf("figure %q: unknown unit %q", text, suffix)
		}
		scale = s
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("figure %q: not a finite number", text)
	}
	return v * scale, nil
}
