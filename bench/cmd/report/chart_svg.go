package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Drawing the headline chart as SVG, by hand: horizontal bars, one panel
// per comparison, each panel on one scale. The colours follow the
// reader's theme (prefers-color-scheme) over a background of their own, so
// that the chart reads on light and dark pages alike; the title, the
// description and a tooltip per bar say every figure in words.

// Chart geometry, in pixels.
const (
	chartWidth   = 760
	chartMargin  = 20
	nameRight    = 150 // right edge of the target names
	barLeft      = 160
	barMaxWidth  = 440
	barHeight    = 16
	barStep      = 22
	panelGap     = 18
	rowLabelStep = 20
)

const chartStyle = `text{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;font-size:13px;fill:#1f2328}
.bg{fill:#ffffff}.muted{fill:#59636e;font-size:12px}.head{font-size:15px;font-weight:600}.title{font-size:18px;font-weight:600}
.ours{fill:#0969da}.peer{fill:#8c959f}.ref{fill:#bf8700}
@media (prefers-color-scheme:dark){text{fill:#e6edf3}.bg{fill:#0d1117}.muted{fill:#9198a1}.ours{fill:#4493f8}.peer{fill:#6e7681}.ref{fill:#d29922}}`

// chartCaveat says how to read the figures.
const chartCaveat = "A shared, loaded machine: compare the bars of one panel, not the absolute figures."

// chartTitle is the chart's title.
const chartTitle = "gomcp beside go-sdk and mcp-go"

// writeChartSVG draws c. The same chart gives the same bytes.
func writeChartSVG(w io.Writer, c chart) error {
	var body strings.Builder
	y := 34
	fmt.Fprintf(&body, "<text class=\"title\" x=\"%d\" y=\"%d\">%s</text>\n", chartMargin, y, esc(chartTitle))
	y += 20
	fmt.Fprintf(&body, "<text class=\"muted\" x=\"%d\" y=\"%d\">%s</text>\n", chartMargin, y, esc(c.source))
	y += 16
	fmt.Fprintf(&body, "<text class=\"muted\" x=\"%d\" y=\"%d\">%s</text>\n", chartMargin, y, esc(chartCaveat))
	y += 24
	x := chartMargin
	for _, l := range [][2]string{{"ours", "gomcp"}, {"peer", "go-sdk, mcp-go"}, {"ref", "net/http alone (ceiling)"}} {
		fmt.Fprintf(&body, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\"/>", l[0], x, y-11)
		fmt.Fprintf(&body, "<text x=\"%d\" y=\"%d\">%s</text>\n", x+17, y, esc(l[1]))
		x += 30 + 8*len(l[1])
	}
	for _, p := range c.panels {
		y = drawPanel(&body, p, y+panelGap+16)
	}
	height := y + chartMargin
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"chart-title chart-desc\">\n",
		chartWidth, height, chartWidth, height)
	fmt.Fprintf(&b, "<title id=\"chart-title\">%s</title>\n", esc(chartTitle))
	fmt.Fprintf(&b, "<desc id=\"chart-desc\">%s</desc>\n", esc(chartDescription(c)))
	fmt.Fprintf(&b, "<style>\n%s\n</style>\n", chartStyle)
	fmt.Fprintf(&b, "<rect class=\"bg\" width=\"%d\" height=\"%d\" rx=\"6\"/>\n", chartWidth, height)
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// drawPanel draws p with its title's baseline at y and returns the
// baseline of its last line.
func drawPanel(b *strings.Builder, p chartPanel, y int) int {
	fmt.Fprintf(b, "<text class=\"head\" x=\"%d\" y=\"%d\">%s <tspan class=\"muted\">(%s)</tspan></text>\n",
		chartMargin, y, esc(p.title), betterWay(p.higher))
	for _, r := range p.rows {
		if r.label != "" {
			y += rowLabelStep
			fmt.Fprintf(b, "<text class=\"muted\" x=\"%d\" y=\"%d\">%s</text>\n", chartMargin, y, esc(r.label))
		}
		for i, bar := range r.bars {
			top := y + 8 + i*barStep
			base := top + barHeight - 3
			fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", nameRight, base, esc(bar.name))
			if !bar.ok || p.max <= 0 {
				fmt.Fprintf(b, "<text class=\"muted\" x=\"%d\" y=\"%d\">not measured</text>\n", barLeft, base)
				continue
			}
			width := max(bar.value/p.max*barMaxWidth, 1)
			fmt.Fprintf(b, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s</title></rect>",
				barClass(bar.target), barLeft, top, width, barHeight, esc(barWords(r, bar, p)))
			fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", float64(barLeft)+width+6, base, esc(barWords(chartRow{}, bar, p)))
		}
		y += 8 + len(r.bars)*barStep
	}
	return y
}

// barClass is the colour class of a target's bar.
func barClass(target string) string {
	switch target {
	case ours:
		return "ours"
	case ceiling:
		return "ref"
	default:
		return "peer"
	}
}

func betterWay(higher bool) string {
	if higher {
		return "higher is better"
	}
	return "lower is better"
}

// barWords says a bar's figure: its value (with calls/s named, as
// formatValue leaves it bare), preceded by the target and row when r has
// a label.
func barWords(r chartRow, bar chartBar, p chartPanel) string {
	text := bar.text
	if p.unit == "calls/s" {
		text += " calls/s"
	}
	if r.label == "" {
		return text
	}
	return fmt.Sprintf("%s, %s: %s", bar.name, r.label, text)
}

// chartDescription says every figure of c in words, for readers who do
// not see the chart.
func chartDescription(c chart) string {
	var b strings.Builder
	b.WriteString("Bar chart of the headline comparisons of BENCHMARKS.md. " + c.source + " " + chartCaveat)
	for _, p := range c.panels {
		fmt.Fprintf(&b, " %s (%s):", p.title, betterWay(p.higher))
		for i, r := range p.rows {
			if i > 0 {
				b.WriteString(";")
			}
			if r.label != "" {
				fmt.Fprintf(&b, " %s:", r.label)
			}
			for j, bar := range r.bars {
				if j > 0 {
					b.WriteString(",")
				}
				value := "not measured"
				if bar.ok {
					value = barWords(chartRow{}, bar, p)
				}
				fmt.Fprintf(&b, " %s %s", bar.name, value)
			}
		}
		b.WriteString(".")
	}
	return b.String()
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // writes to a strings.Builder cannot fail
	return b.String()
}
