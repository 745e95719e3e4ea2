// Command report runs the gomcp benchmarks side by side with the official
// Go SDK and mark3labs/mcp-go and writes BENCHMARKS.md.
//
// It compiles the test binary of each package the benchmark groups live in
// (the bench package, and others named relative to the repository root)
// once, then runs every
// benchmark pass by pass, one process per SDK and benchmark, rotating the
// order of the SDKs between passes; it takes the median of each figure over
// the passes and the median of each ratio taken within one pass, checks the
// performance goals and writes the report. Every benchmark run ends by
// itself; the whole run stops starting new benchmarks after -max.
//
// With the report it draws the headline comparisons as an SVG chart,
// BENCHMARKS.svg beside BENCHMARKS.md (-svg to put it elsewhere). The
// chart is drawn from the medians the report lists, so -svg-from draws it
// again from a BENCHMARKS.md alone, without running anything.
//
// Usage, from the repository root:
//
//	go run ./bench/cmd/report [-passes 5] [-o BENCHMARKS.md] [-svg BENCHMARKS.svg] [-run regexp] [-quick]
//	go run ./bench/cmd/report -svg-from BENCHMARKS.md [-svg BENCHMARKS.svg]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	passes := flag.Int("passes", 5, "passes over all benchmarks")
	outPath := flag.String("o", "", "output file (default BENCHMARKS.md at the root of module github.com/gomcp/sdk; - for stdout)")
	filter := flag.String("run", "", "only run groups whose name matches this regexp, such as CallTool/memory")
	quick := flag.Bool("quick", false, "run every benchmark once (-benchtime=1x): checks the runner, measures nothing")
	maxTime := flag.Duration("max", 10*time.Minute, "start no benchmark after this much time")
	svgPath := flag.String("svg", "", "chart file (default: beside the report, with .svg for .md; none with -o - unless set)")
	svgFrom := flag.String("svg-from", "", "draw the chart from this BENCHMARKS.md and run nothing")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("report: ")
	if *passes < 1 {
		log.Fatal("-passes must be at least 1")
	}
	if *svgFrom != "" {
		if err := chartFromMarkdown(*svgFrom, *svgPath); err != nil {
			log.Fatal(err)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *passes, *outPath, *svgPath, *filter, *quick, *maxTime); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, passes int, outPath, svgPath, filter string, quick bool, maxTime time.Duration) error {
	start := time.Now()
	b := fullBudget
	if quick {
		b = quickBudget
	}
	groups, err := selectGroups(plan(b), filter)
	if err != nil {
		return err
	}
	root, err := goOutput(ctx, "list", "-m", "-f", "{{.Dir}}", "github.com/gomcp/sdk")
	if err != nil {
		return err
	}
	pkgDir := filepath.Join(root, benchDir)
	if outPath == "" {
		outPath = filepath.Join(root, "BENCHMARKS.md")
	}
	env := environment{
		command:    commandLine(),
		date:       start.UTC().Format("2006-01-02 15:04 MST"),
		machine:    machine(),
		goVersion:  must(goOutput(ctx, "version")),
		modules:    peerModules(ctx, pkgDir),
		loadBefore: loadAverage(),
		passes:     passes,
		repeats:    b.repeats,
	}
	tmp, err := os.MkdirTemp("", "gomcp-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins, err := buildBinaries(ctx, root, tmp, groups)
	if err != nil {
		return err
	}
	s := newStore()
	r := &runner{bins: bins, groups: groups, passes: passes, repeats: b.repeats, deadline: start.Add(maxTime), log: os.Stderr}
	complete, err := r.run(ctx, s)
	if err != nil {
		return err
	}
	env.loadAfter = loadAverage()
	if !complete {
		env.note = fmt.Sprintf("stopped starting benchmarks after -max %v; the last pass is incomplete", maxTime)
	}
	if quick {
		env.note = strings.TrimPrefix(env.note+"; -quick: one op per benchmark, figures are not measurements", "; ")
	}
	if filter != "" {
		env.note = strings.TrimPrefix(env.note+"; only groups matching "+filter, "; ")
	}
	if err := writeReport(outPath, env, groups, s, pkgDir); err != nil {
		return err
	}
	if svgPath = chartPath(outPath, svgPath); svgPath != "" {
		if err := writeChartFile(svgPath, buildChart(storeFigures{s}, chartSource(env.date, env.machine))); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "wrote %s in %v\n", outPath, time.Since(start).Round(time.Second))
	return nil
}

// writeReport writes BENCHMARKS.md to outPath ("-": stdout), with the
// soak results found in pkgDir.
func writeReport(outPath string, env environment, groups []group, s *store, pkgDir string) error {
	w := os.Stdout
	if outPath != "-" {
		f, err := os.Create(outPath)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := writeMarkdown(w, env, groups, s); err != nil {
		return err
	}
	soak, err := readSoak(pkgDir)
	if err != nil {
		return err
	}
	if err := writeSoak(w, soak); err != nil {
		return err
	}
	if w != os.Stdout {
		return w.Close()
	}
	return nil
}

// chartPath returns where the chart goes: svgPath if set, else beside
// the report (none when the report goes to stdout).
func chartPath(outPath, svgPath string) string {
	switch {
	case svgPath != "":
		return svgPath
	case outPath == "-":
		return ""
	default:
		return strings.TrimSuffix(outPath, ".md") + ".svg"
	}
}

// chartFromMarkdown draws the chart of the BENCHMARKS.md at mdPath into
// svgPath (default: beside it).
func chartFromMarkdown(mdPath, svgPath string) error {
	f, err := os.Open(mdPath)
	if err != nil {
		return err
	}
	defer f.Close()
	figs, err := parseFigures(f)
	if err != nil {
		return fmt.Errorf("%s: %w", mdPath, err)
	}
	svgPath = chartPath(mdPath, svgPath)
	if err := writeChartFile(svgPath, buildChart(figs, figs.source())); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s from %s\n", svgPath, mdPath)
	return nil
}

// writeChartFile writes the chart c to path ("-": stdout).
func writeChartFile(path string, c chart) error {
	if path == "-" {
		return writeChartSVG(os.Stdout, c)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeChartSVG(f, c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// selectGroups keeps the groups whose name matches filter.
func selectGroups(groups []group, filter string) ([]group, error) {
	if filter == "" {
		return groups, nil
	}
	re, err := regexp.Compile(filter)
	if err != nil {
		return nil, fmt.Errorf("-run: %w", err)
	}
	var kept []group
	for _, g := range groups {
		if re.MatchString(g.name()) {
			kept = append(kept, g)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("-run %q matches no benchmark group", filter)
	}
	return kept, nil
}
