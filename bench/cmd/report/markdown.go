package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// An environment describes where and how the report was made.
type environment struct {
	command    string   // the exact command line
	date       string   // when the run started, UTC
	machine    string   // CPU model and count, OS and architecture
	goVersion  string   // go version output
	modules    []string // module@version of the peers
	loadBefore string   // load average when the run started
	loadAfter  string   // load average when it ended
	passes     int      // passes planned
	repeats    int      // runs per pass of the repeated groups
	note       string   // anything unusual, such as a time limit reached
}

// writeMarkdown writes BENCHMARKS.md: environment, goals, one table per
// section, skips and failures.
func writeMarkdown(w io.Writer, env environment, groups []group, s *store) error {
	var b strings.Builder
	b.WriteString("# gomcp benchmarks\n\n")
	b.WriteString("Written by the bench runner (bench/cmd/report); do not edit by hand.\n\n")
	fmt.Fprintf(&b, "- Command: `%s`\n", env.command)
	fmt.Fprintf(&b, "- Date: %s\n", env.date)
	fmt.Fprintf(&b, "- Machine: %s\n", env.machine)
	fmt.Fprintf(&b, "- Go: %s\n", env.goVersion)
	fmt.Fprintf(&b, "- Peers: %s\n", strings.Join(env.modules, ", "))
	fmt.Fprintf(&b, "- Passes: %d planned, %d started; every figure is the median over passes, every ratio the median of ratios taken within one pass", env.passes, s.passes)
	if env.repeats > 1 {
		fmt.Fprintf(&b, " (the protected-load groups run %d times in each pass: their medians are over every run)", env.repeats)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- Load average (1, 5, 15 min): %s at the start, %s at the end\n", env.loadBefore, env.loadAfter)
	if env.note != "" {
		fmt.Fprintf(&b, "- Note: %s\n", env.note)
	}
	b.WriteString("\nThese figures come from a shared, loaded machine: other builds and tests ran while it was measured. " +
		"Absolute times mean little; only ratios measured in the same run count.\n\n")

	b.WriteString("## Goals\n\n")
	for _, gl := range goals {
		status, detail := s.evaluate(gl, groups)
		fmt.Fprintf(&b, "- **%s**: %s — %s\n", status, gl.text, detail)
	}
	fmt.Fprintf(&b, "\n### %s\n\n", eventsTeamSection)
	for _, gl := range eventsTeamGoals {
		status, detail := s.evaluate(gl, groups)
		fmt.Fprintf(&b, "- **%s**: %s — %s\n", status, gl.text, detail)
	}

	b.WriteString("\n" + method)
	b.WriteString("\n## Figures\n\n")
	b.WriteString("Arrows say which way is better. \"ours ÷ best peer\" divides our figure by the best peer's in the same pass " +
		"(below 1 is better for ↓ figures, above 1 for ↑); the peer named is the best by median. " +
		"\"÷ ceiling\" divides calls/s or server CPU per call by the bare net/http handler's. B/op and allocs/op count client and server together.\n")
	for _, sec := range sections(groups) {
		writeSection(&b, sec, s)
	}
	writeSkipsAndFails(&b, s)
	_, err := io.WriteString(w, b.String())
	return err
}

// A section is the groups listed under one heading, with the union of
// their targets as columns.
type section struct {
	title   string
	groups  []group
	targets []string
}

func sections(groups []group) []section {
	var secs []section
	for _, g := range groups {
		if len(secs) == 0 || secs[len(secs)-1].title != g.section {
			secs = append(secs, section{title: g.section})
		}
		sec := &secs[len(secs)-1]
		sec.groups = append(sec.groups, g)
		for _, t := range g.targets {
			if !contains(sec.targets, t) {
				sec.targets = append(sec.targets, t)
			}
		}
	}
	return secs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func writeSection(b *strings.Builder, sec section, s *store) {
	withCeiling := contains(sec.targets, ceiling)
	labels := make([]string, len(sec.targets))
	for i, t := range sec.targets {
		labels[i] = targetLabel(t)
	}
	fmt.Fprintf(b, "\n### %s\n\n| benchmark | figure | %s | ours ÷ best peer |", sec.title, strings.Join(labels, " | "))
	if withCeiling {
		b.WriteString(" ours ÷ ceiling | best peer ÷ ceiling |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(sec.targets)+1))
	if withCeiling {
		b.WriteString("---:|---:|")
	}
	b.WriteString("\n")
	for _, g := range sec.groups {
		for _, m := range g.metrics {
			arrow := "↓"
			if m.higher {
				arrow = "↑"
			}
			fmt.Fprintf(b, "| %s | %s %s |", g.name(), m.unit, arrow)
			for _, t := range sec.targets {
				fmt.Fprintf(b, " %s |", cell(s, g, t, m))
			}
			best := s.bestPeerName(g, m)
			r, ok := s.toBestPeer(g, m, ours)
			fmt.Fprintf(b, " %s |", ratioCell(r, ok, best))
			if withCeiling {
				if g.hasCeiling() && m.vsCeiling {
					r1, ok1 := s.toTarget(g, m, ours, ceiling)
					r2, ok2 := s.toCeilingBestPeer(g, m)
					fmt.Fprintf(b, " %s | %s |", ratioCell(r1, ok1, ""), ratioCell(r2, ok2, best))
				} else {
					b.WriteString(" | |")
				}
			}
			b.WriteString("\n")
		}
	}
}

// targetLabel is a target's column heading: "result" for the benchmark
// itself (target "").
func targetLabel(t string) string {
	if t == "" {
		return "result"
	}
	return t
}

// cell is one target's median, or why there is none.
func cell(s *store, g group, target string, m metric) string {
	if !contains(g.targets, target) {
		return ""
	}
	name := g.full(target)
	if _, ok := s.fails[name]; ok {
		return "failed"
	}
	if reason, ok := s.skips[name]; ok {
		if strings.Contains(reason, "pending") {
			return "pending"
		}
		return "skipped"
	}
	if v, ok := s.median(name, m.unit); ok {
		return formatValue(m.unit, v)
	}
	return "—"
}

// ratioCell formats a ratio, naming the peer it involves, if any.
func ratioCell(v float64, ok bool, who string) string {
	if !ok {
		return "—"
	}
	if who == "" {
		return formatRatio(v)
	}
	return fmt.Sprintf("%s (%s)", formatRatio(v), who)
}

func writeSkipsAndFails(b *strings.Builder, s *store) {
	if len(s.skips) > 0 {
		b.WriteString("\n## Skipped and pending\n\n")
		byReason := map[string][]string{}
		for name, reason := range s.skips {
			byReason[reason] = append(byReason[reason], name)
		}
		reasons := make([]string, 0, len(byReason))
		for r := range byReason {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			names := byReason[r]
			sort.Strings(names)
			fmt.Fprintf(b, "- %s: %s\n", r, strings.Join(names, ", "))
		}
	}
	if len(s.fails) > 0 {
		b.WriteString("\n## Failures\n\n")
		names := make([]string, 0, len(s.fails))
		for n := range s.fails {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(b, "- %s: %s\n", n, s.fails[n])
		}
	}
}
