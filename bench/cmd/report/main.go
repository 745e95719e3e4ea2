// Command report runs the gomcp benchmarks side by side with the official
// Go SDK and mark3labs/mcp-go and writes BENCHMARKS.md.
//
// It compiles the bench package's test binary once, then runs every
// benchmark pass by pass, one process per SDK and benchmark, rotating the
// order of the SDKs between passes; it takes the median of each figure over
// the passes and the median of each ratio taken within one pass, checks the
// performance goals and writes the report. Every benchmark run ends by
// itself; the whole run stops starting new benchmarks after -max.
//
// Usage, from the repository root:
//
//	go run ./bench/cmd/report [-passes 5] [-o BENCHMARKS.md] [-run regexp] [-quick]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
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
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("report: ")
	if *passes < 1 {
		log.Fatal("-passes must be at least 1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *passes, *outPath, *filter, *quick, *maxTime); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, passes int, outPath, filter string, quick bool, maxTime time.Duration) error {
	start := time.Now()
	b := fullBudget
	if quick {
		b = quickBudget
	}
	groups, err := selectGroups(plan(b), filter)
	if err != nil {
		return err
	}
	pkgDir, err := goOutput(ctx, "list", "-f", "{{.Dir}}", "github.com/gomcp/sdk/bench")
	if err != nil {
		return err
	}
	if outPath == "" {
		root, err := goOutput(ctx, "list", "-m", "-f", "{{.Dir}}", "github.com/gomcp/sdk")
		if err != nil {
			return err
		}
		outPath = root + "/BENCHMARKS.md"
	}
	env := environment{
		command:    commandLine(),
		date:       start.UTC().Format("2006-01-02 15:04 MST"),
		machine:    machine(),
		goVersion:  must(goOutput(ctx, "version")),
		modules:    peerModules(ctx, pkgDir),
		loadBefore: loadAverage(),
		passes:     passes,
	}
	tmp, err := os.MkdirTemp("", "gomcp-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := buildBinary(ctx, pkgDir, tmp)
	if err != nil {
		return err
	}
	s := newStore()
	r := &runner{bin: bin, groups: groups, passes: passes, repeats: b.repeats, deadline: start.Add(maxTime), log: os.Stderr}
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
	fmt.Fprintf(os.Stderr, "wrote %s in %v\n", outPath, time.Since(start).Round(time.Second))
	return nil
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
