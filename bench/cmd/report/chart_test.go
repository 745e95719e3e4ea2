package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/chart.svg")

// headlineLines are one pass of every headline figure, as fakeStore reads
// them; mcp-go's cold start is missing, and go-sdk's 2026-07-28 fan-out
// failed.
var headlineLines = []string{
	"0 BenchmarkHTTPLoad/raw/legacy/c64/ours calls/s=38800",
	"0 BenchmarkHTTPLoad/raw/legacy/c64/gosdk calls/s=6324",
	"0 BenchmarkHTTPLoad/raw/legacy/c64/mcpgo calls/s=25906",
	"0 BenchmarkHTTPLoad/raw/legacy/c64/ceiling calls/s=41490",
	"0 BenchmarkHTTPLoad/raw/modern/c64/ours calls/s=34726.4",
	"0 BenchmarkHTTPLoad/raw/modern/c64/gosdk calls/s=3492",
	"0 BenchmarkHTTPLoad/raw/modern/c64/mcpgo calls/s=12842",
	"0 BenchmarkHTTPLoad/raw/modern/c64/ceiling calls/s=39047",
	"0 BenchmarkFanout/tools/legacy/n10000/ours p99-ns=91912345",
	"0 BenchmarkFanout/tools/legacy/n10000/gosdk p99-ns=188000000",
	"0 BenchmarkFanout/tools/legacy/n10000/mcpgo p99-ns=146000000",
	"0 BenchmarkFanout/tools/legacy/n10000/ceiling p99-ns=107000000",
	"0 BenchmarkFanout/tools/modern/n10000/ours p99-ns=88800000",
	"0 BenchmarkFanout/tools/modern/n10000/gosdk p99-ns=234000000",
	"0 BenchmarkFanout/tools/modern/n10000/mcpgo p99-ns=177000000",
	"0 BenchmarkFanout/tools/modern/n10000/ceiling p99-ns=105000000",
	"0 BenchmarkCallTool/memory/legacy/seq/ours ns/op=8450",
	"0 BenchmarkCallTool/memory/legacy/seq/gosdk ns/op=177000",
	"0 BenchmarkCallTool/memory/legacy/seq/mcpgo ns/op=19900",
	"0 BenchmarkCallTool/memory/modern/seq/ours ns/op=10700",
	"0 BenchmarkCallTool/memory/modern/seq/gosdk ns/op=237000",
	"0 BenchmarkCallTool/memory/modern/seq/mcpgo ns/op=59300",
	"0 BenchmarkColdStart/ours ns/op=3590000",
	"0 BenchmarkColdStart/gosdk ns/op=4420000",
}

func headlineStore(t *testing.T, lines []string) *store {
	s := fakeStore(t, lines...)
	s.fails["BenchmarkFanout/tools/modern/n10000/gosdk"] = "boom"
	return s
}

// headlineGroups are the plan's groups the chart reads.
func headlineGroups() []group {
	want := map[string]bool{}
	for _, p := range headline {
		for _, r := range p.rows {
			want[r[1]] = true
		}
	}
	var gs []group
	for _, g := range plan(fullBudget) {
		if want[g.name()] {
			gs = append(gs, g)
		}
	}
	return gs
}

func svgOf(t *testing.T, c chart) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := writeChartSVG(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkXML fails unless svg is well-formed XML whose root is an svg
// element with a title and a description.
func checkXML(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var names []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && len(names) < 3 {
			names = append(names, se.Name.Local)
		}
	}
	if strings.Join(names, " ") != "svg title desc" {
		t.Errorf("first elements %v, want svg title desc", names)
	}
}

// TestChartGolden checks the chart of a known store against
// testdata/chart.svg (go test -update rewrites it), and that drawing it
// again, from a store filled in another order, gives the same bytes.
func TestChartGolden(t *testing.T) {
	const source = "Medians from BENCHMARKS.md, 2026-11-26 19:01 UTC, test CPU."
	got := svgOf(t, buildChart(storeFigures{headlineStore(t, headlineLines)}, source))
	checkXML(t, got)
	golden := filepath.Join("testdata", "chart.svg")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("chart differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	reversed := make([]string, len(headlineLines))
	for i, l := range headlineLines {
		reversed[len(reversed)-1-i] = l
	}
	again := svgOf(t, buildChart(storeFigures{headlineStore(t, reversed)}, source))
	if !bytes.Equal(got, again) {
		t.Error("the same figures added in another order draw other bytes")
	}
	for _, want := range []string{
		`<title>gomcp, protocol 2025-11-25: 38800 calls/s</title>`,
		`protocol 2026-07-28: gomcp 88.8 ms, go-sdk not measured`, // failed
		`mcp-go not measured`, // cold start missing
		`role="img" aria-labelledby="chart-title chart-desc"`,
		`@media (prefers-color-scheme:dark)`,
		`<rect class="bg"`,
	} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

// TestChartFromMarkdown checks that the chart read back from the
// BENCHMARKS.md of a run is the chart of the run, byte for byte.
func TestChartFromMarkdown(t *testing.T) {
	s := headlineStore(t, headlineLines)
	env := environment{date: "2026-11-26 19:01 UTC", machine: "test CPU, 2 CPUs", passes: 1}
	var md bytes.Buffer
	if err := writeMarkdown(&md, env, headlineGroups(), s); err != nil {
		t.Fatal(err)
	}
	figs, err := parseFigures(&md)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := figs.source(), chartSource(env.date, env.machine); got != want {
		t.Errorf("source %q, want %q", got, want)
	}
	fromRun := svgOf(t, buildChart(storeFigures{s}, chartSource(env.date, env.machine)))
	fromMarkdown := svgOf(t, buildChart(figs, figs.source()))
	if !bytes.Equal(fromRun, fromMarkdown) {
		t.Errorf("chart from BENCHMARKS.md differs from the run's:\n%s\n---\n%s", fromMarkdown, fromRun)
	}
}

func TestChartEscapes(t *testing.T) {
	c := buildChart(storeFigures{headlineStore(t, headlineLines)}, `Medians from <BENCHMARKS.md> & "x" 'y'`)
	c.panels[0].title = "calls </text><script>alert(1)</script>"
	svg := svgOf(t, c)
	checkXML(t, svg)
	for _, bad := range []string{"<script>", "<BENCHMARKS.md>", `& "x"`} {
		if bytes.Contains(svg, []byte(bad)) {
			t.Errorf("chart holds %q unescaped", bad)
		}
	}
	if !bytes.Contains(svg, []byte("Medians from &lt;BENCHMARKS.md&gt; &amp; &#34;x&#34; &#39;y&#39;")) {
		t.Error("source not escaped as expected")
	}
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  bool
	}{
		{"54982", 54982, false},
		{"3.59 ms", 3.59e6, false},
		{"8.45 µs", 8450, false},
		{"900 ns", 900, false},
		{"1.2 s", 1.2e9, false},
		{"1.5 KiB", 1536, false},
		{"2 MiB", 2 << 20, false},
		{"pending", 0, true},
		{"—", 0, true},
		{"3 parsecs", 0, true},
		{"NaN", 0, true},
		{"+Inf", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		got, err := parseValue(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("parseValue(%q) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
	// What formatValue writes, parseValue reads back to the same text.
	for _, unit := range []string{"ns/op", "p99-ns", "calls/s", "B/op"} {
		for _, v := range []float64{0, 7, 8450, 91912345, 3.7e9, 123456} {
			text := formatValue(unit, v)
			back, err := parseValue(text)
			if err != nil || formatValue(unit, back) != text {
				t.Errorf("%s %v: %q read back as %v (%v)", unit, v, text, back, err)
			}
		}
	}
}

func TestParseFigures(t *testing.T) {
	tests := []struct {
		name, in string
		err      string
		figures  map[figureKey]float64 // wanted; a NaN: not measured
	}{
		{"no table", "# gomcp benchmarks\n\n- Date: x\n", "no figure table", nil},
		{"short row", "| benchmark | figure | ours | gosdk | ours ÷ best peer |\n|---|---|---:|---:|---:|\n| ColdStart | ns/op ↓ | 1 ms |\n",
			"line 3: a row of 3 cells under a header of 2 targets", nil},
		{"empty group", "| benchmark | figure | ours | ours ÷ best peer |\n| | ns/op ↓ | 1 ms | — |\n", "line 2: a row without a benchmark", nil},
		{"figures", "| benchmark | figure | ours | gosdk | mcpgo | ours ÷ best peer |\n|---|---|---:|---:|---:|---:|\n" +
			"| ColdStart | ns/op ↓ | 3.59 ms | pending |  | 0.8 (gosdk) |\n\nafter the table\n| ColdStart | binary-bytes ↓ | 1 | 2 | 3 | 4 |\n", "",
			map[figureKey]float64{
				{"ColdStart", "ours", "ns/op"}:         3.59e6,
				{"ColdStart", "gosdk", "ns/op"}:        nan(),
				{"ColdStart", "mcpgo", "ns/op"}:        nan(),
				{"ColdStart", "ours", "binary-bytes"}:  nan(), // not under a header
				{"ColdStart", "best", "ns/op"}:         nan(),
				{"ColdStart", "ceiling", "ns/op"}:      nan(),
				{"Fanout/tools/x", "ours", "p99-ns"}:   nan(),
				{"ColdStart", "ours ÷ best peer", "x"}: nan(),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := parseFigures(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.figures {
				got, ok := m.figure(k.group, k.target, k.unit)
				if want != want { // NaN: not measured
					if ok {
						t.Errorf("%v = %v, want not measured", k, got)
					}
				} else if !ok || got != want {
					t.Errorf("%v = %v, %v; want %v", k, got, ok, want)
				}
			}
		})
	}
}

func nan() float64 { var z float64; return z / z }

// FuzzParseFigures checks that any text either is refused with an error
// or gives figures that draw a well-formed chart.
func FuzzParseFigures(f *testing.F) {
	f.Add("| benchmark | figure | ours | gosdk | ours ÷ best peer |\n|---|---|---:|---:|---:|\n| ColdStart | ns/op ↓ | 3.59 ms | 4 ms | 0.8 |\n")
	f.Add("- Date: <x> & y\n| benchmark | figure | ours | ceiling |\n| HTTPLoad/raw/legacy/c64 | calls/s ↑ | 1e308 | 0 |\n")
	f.Add("| benchmark | figure |\n| a | b |\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := parseFigures(strings.NewReader(in))
		if err != nil {
			return
		}
		svg := svgOf(t, buildChart(m, m.source()))
		checkXML(t, svg)
		if bytes.Contains(svg, []byte("NaN")) || bytes.Contains(svg, []byte("Inf")) {
			t.Errorf("chart holds a non-finite coordinate:\n%s", svg)
		}
	})
}

// TestCommittedChart checks that the repository's BENCHMARKS.svg is the
// chart of its BENCHMARKS.md, as the report writes them together: a
// report regenerated without its chart, or a chart edited by hand, fails.
// go run ./bench/cmd/report -svg-from BENCHMARKS.md draws it again.
func TestCommittedChart(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	md, err := os.Open(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	figs, err := parseFigures(md)
	if err != nil {
		t.Fatal(err)
	}
	want := svgOf(t, buildChart(figs, figs.source()))
	got, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("BENCHMARKS.svg is not the chart of BENCHMARKS.md: go run ./bench/cmd/report -svg-from BENCHMARKS.md")
	}
}
