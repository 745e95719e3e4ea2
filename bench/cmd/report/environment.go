package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// goOutput runs the go command and returns its trimmed output.
func goOutput(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", args...).Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// must returns s, or the error's text in its place: a missing detail of the
// environment should not stop the report.
func must(s string, err error) string {
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return s
}

// commandLine returns the command the report was made with.
func commandLine() string {
	args := append([]string{"go run ./bench/cmd/report"}, os.Args[1:]...)
	return strings.Join(args, " ")
}

// machine describes the CPU, the number of CPUs and the platform.
func machine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d CPUs, %s/%s", model, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
}

// loadAverage returns the system's load averages, if it publishes them.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}

// peerModules lists the versions of the peer modules the bench module uses.
func peerModules(ctx context.Context, pkgDir string) []string {
	mods := []string{
		"github.com/modelcontextprotocol/go-sdk", "github.com/mark3labs/mcp-go",
		"github.com/google/jsonschema-go", "github.com/santhosh-tekuri/jsonschema/v6",
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-m", "-f", "{{.Path}}@{{.Version}}"}, mods...)...)
	cmd.Dir = pkgDir
	out, err := cmd.Output()
	if err != nil {
		return mods
	}
	return strings.Fields(string(out))
}
