package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errNotResult reports a line of benchmark output that is not a result.
var errNotResult = errors.New("not a benchmark result line")

// A result is one benchmark result line: the benchmark's full name without
// its -GOMAXPROCS suffix, the number of ops and each value by unit.
type result struct {
	name   string
	n      int64
	values map[string]float64
}

// A skip is a benchmark that skipped itself, with its reason.
type skip struct {
	name, reason string
}

// An output is what one run of the benchmark binary printed, parsed.
type output struct {
	results []result
	skips   []skip
	fails   []skip // failed benchmarks and their messages
}

// parseOutput parses the output of a benchmark binary run with -test.v:
// result lines, and the "--- SKIP" and "--- FAIL" lines with the indented
// messages printed before them.
func parseOutput(data []byte) output {
	var out output
	var msgs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "    "):
			msgs = append(msgs, trimLocation(strings.TrimSpace(line)))
		case strings.HasPrefix(line, "--- SKIP: "):
			out.skips = append(out.skips, skip{benchName(line[len("--- SKIP: "):]), strings.Join(msgs, "; ")})
			msgs = nil
		case strings.HasPrefix(line, "--- FAIL: "):
			out.fails = append(out.fails, skip{benchName(line[len("--- FAIL: "):]), strings.Join(msgs, "; ")})
			msgs = nil
		default:
			if r, err := parseResult(line); err == nil {
				out.results = append(out.results, r)
				msgs = nil
			}
		}
	}
	return out
}

// trimLocation removes the "file_test.go:12: " prefix of a log line.
func trimLocation(msg string) string {
	loc, rest, ok := strings.Cut(msg, ": ")
	if !ok {
		return msg
	}
	file, line, ok := strings.Cut(loc, ".go:")
	if !ok || file == "" || strings.ContainsAny(file, " \t") {
		return msg
	}
	if _, err := strconv.Atoi(line); err != nil {
		return msg
	}
	return rest
}

// benchName returns the name in a "--- SKIP: name (0.00s)" line's tail.
func benchName(s string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return name
}

// parseResult parses a result line such as
//
//	BenchmarkX/a/b-2   100   1234 ns/op   56 B/op   7 allocs/op   9.5 calls/s
func parseResult(line string) (result, error) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
		return result{}, errNotResult
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || n <= 0 {
		return result{}, fmt.Errorf("%w: op count %q", errNotResult, f[1])
	}
	r := result{name: trimProcs(f[0]), n: n, values: make(map[string]float64, (len(f)-2)/2)}
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return result{}, fmt.Errorf("%w: value %q", errNotResult, f[i])
		}
		if _, dup := r.values[f[i+1]]; dup {
			return result{}, fmt.Errorf("%w: unit %q twice", errNotResult, f[i+1])
		}
		r.values[f[i+1]] = v
	}
	return r, nil
}

// trimProcs removes the -GOMAXPROCS suffix go test adds to names.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}
