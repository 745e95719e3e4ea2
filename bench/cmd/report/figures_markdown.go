package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// markdownFigures are the figures of a BENCHMARKS.md, read back from its
// tables, so that the chart can be drawn again without running anything.
type markdownFigures struct {
	date, machine string
	cells         map[figureKey]string // the cell's text
}

type figureKey struct{ group, target, unit string }

// figure returns a cell's value, if it holds one.
func (m *markdownFigures) figure(group, target, unit string) (float64, bool) {
	text, ok := m.cells[figureKey{group, target, unit}]
	if !ok {
		return 0, false
	}
	v, err := parseValue(text)
	return v, err == nil
}

// errNoFigures reports a file with no figure table.
var errNoFigures = errors.New("no figure table (a line starting with \"| benchmark | figure |\")")

// parseFigures reads the figure tables of a BENCHMARKS.md as writeMarkdown
// writes them: a header "| benchmark | figure | target … | ours ÷ best
// peer | …", then rows "| group | unit arrow | cell … |". Cells that are not
// figures ("pending", "—", empty) are kept as text and read as not
// measured. The Date and Machine lines are kept for the chart's source
// line.
func parseFigures(r io.Reader) (*markdownFigures, error) {
	m := &markdownFigures{cells: make(map[figureKey]string)}
	var targets []string // the current table's target columns
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	tables := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "- Date: "):
			m.date = strings.TrimPrefix(line, "- Date: ")
		case strings.HasPrefix(line, "- Machine: "):
			m.machine = strings.TrimPrefix(line, "- Machine: ")
		case strings.HasPrefix(line, "| benchmark | figure |"):
			targets = tableTargets(tableCells(line))
			tables++
		case !strings.HasPrefix(line, "|"):
			targets = nil // a table ends at its first line that is not a row
		case targets == nil || strings.HasPrefix(line, "|---"):
		default:
			if err := m.addRow(tableCells(line), targets); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if tables == 0 {
		return nil, errNoFigures
	}
	return m, nil
}

// tableCells splits a table line into its trimmed cells.
func tableCells(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

// tableTargets returns a header's target columns: those after "figure"
// and before the first ratio column.
func tableTargets(header []string) []string {
	targets := []string{}
	for _, c := range header[2:] {
		if strings.Contains(c, "÷") {
			break
		}
		targets = append(targets, c)
	}
	return targets
}

// addRow records one row's cells under its group, unit and targets.
func (m *markdownFigures) addRow(cells, targets []string) error {
	if len(cells) < 2+len(targets) {
		return fmt.Errorf("a row of %d cells under a header of %d targets", len(cells), len(targets))
	}
	unit, _, _ := strings.Cut(cells[1], " ")
	if cells[0] == "" || unit == "" {
		return fmt.Errorf("a row without a benchmark or a figure: %q", strings.Join(cells, "|"))
	}
	for i, t := range targets {
		if text := cells[2+i]; text != "" {
			m.cells[figureKey{cells[0], t, unit}] = text
		}
	}
	return nil
}

// source describes where the figures come from, for the chart.
func (m *markdownFigures) source() string {
	return chartSource(m.date, m.machine)
}

// chartSource is the chart's line on where its figures come from.
func chartSource(date, machine string) string {
	s := "Medians from BENCHMARKS.md"
	if date != "" {
		s += ", " + date
	}
	if machine != "" {
		s += ", " + machine
	}
	return s + "."
}
