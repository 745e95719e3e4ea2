package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// A binary is the test binary of one package directory, with the
// benchmarks it has. Groups whose benchmark is not in it (a package or a
// benchmark not merged yet) are recorded as pending instead of being run.
type binary struct {
	dir        string          // the package directory, absolute
	path       string          // the test binary; "" if there is none
	missing    string          // why there is no binary, if so
	benchmarks map[string]bool // top-level benchmark functions
}

// pendingReason says why g cannot run from b, or "" if it can.
func (b *binary) pendingReason(g group) string {
	if b.path == "" {
		return "pending: " + b.missing
	}
	if !b.benchmarks[g.bench] {
		return fmt.Sprintf("pending: %s is not in package %s in this checkout", g.bench, g.dir)
	}
	return ""
}

// binaryArgs are the extra flags a package's test binary takes: only the
// bench package defines -bench.maxstreams.
func binaryArgs(dir string) []string {
	if dir == benchDir {
		return []string{"-bench.maxstreams=10000"}
	}
	return nil
}

// buildBinaries builds one test binary per package directory the groups
// name (relative to root) into tmp, and lists the benchmarks of each. A
// directory missing from the checkout gets no binary; a package that
// fails to build is an error.
func buildBinaries(ctx context.Context, root, tmp string, groups []group) (map[string]*binary, error) {
	bins := map[string]*binary{}
	for _, g := range groups {
		if _, ok := bins[g.dir]; ok {
			continue
		}
		b, err := buildBinary(ctx, root, g.dir, tmp)
		if err != nil {
			return nil, err
		}
		bins[g.dir] = b
	}
	return bins, nil
}

// buildBinary compiles the tests of package directory dir (relative to
// root) into tmp and lists its benchmarks.
func buildBinary(ctx context.Context, root, dir, tmp string) (*binary, error) {
	b := &binary{dir: filepath.Join(root, filepath.FromSlash(dir))}
	tests, err := filepath.Glob(filepath.Join(b.dir, "*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("looking for the tests of %s: %w", dir, err)
	}
	if len(tests) == 0 {
		// No directory, or one without the package yet (ext/events
		// holds ext/events/webhook before the events package is merged).
		b.missing = fmt.Sprintf("package %s is not in this checkout", dir)
		return b, nil
	}
	bin := filepath.Join(tmp, strings.ReplaceAll(dir, "/", "_")+".test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, ".")
	cmd.Dir = b.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -c in %s: %w\n%s", dir, err, out)
	}
	b.path = bin
	list := exec.CommandContext(ctx, bin, "-test.list", "^Benchmark")
	list.Dir = b.dir
	out, err := list.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the benchmarks of %s: %w", dir, err)
	}
	b.benchmarks = parseBenchmarkList(out)
	return b, nil
}

// parseBenchmarkList reads the names -test.list prints, one a line.
func parseBenchmarkList(out []byte) map[string]bool {
	names := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if name := strings.TrimSpace(sc.Text()); strings.HasPrefix(name, "Benchmark") {
			names[name] = true
		}
	}
	return names
}
