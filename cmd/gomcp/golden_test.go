package main

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// goldenCases are one-shot commands against the everything-server, with
// the exit code and the code of the stderr error line they must give.
// Their --json output is compared with testdata/golden/NAME.ERA.json.
var goldenCases = []struct {
	name    string
	args    []string
	exit    int
	errCode string
}{
	{"tools", []string{"tools", "--json"}, exitOK, ""},
	{"tools-limit", []string{"tools", "--json", "--limit", "2"}, exitOK, ""},
	{"call-text", []string{"call", "--json", "test_simple_text"}, exitOK, ""},
	{"call-converted", []string{"call", "--json", "greet", "name=Ada"}, exitOK, ""},
	{"call-args-json", []string{"call", "--json", "--args", `{"name":"Grace"}`, "greet"}, exitOK, ""},
	{"call-image", []string{"call", "--json", "test_image_content"}, exitOK, ""},
	{"call-is-error", []string{"call", "--json", "test_error_handling"}, exitToolError, "tool_is_error"},
	{"call-unknown-tool", []string{"call", "--json", "no_such_tool"}, exitToolError, "tool_not_found"},
	{"call-unknown-tool-converted", []string{"call", "--json", "no_such_tool", "a=1"}, exitToolError, "tool_not_found"},
	{"prompts", []string{"prompts", "--json"}, exitOK, ""},
	{"prompt", []string{"prompt", "--json", "test_prompt_with_arguments", "arg1=a", "arg2=b"}, exitOK, ""},
	{"resources", []string{"resources", "--json"}, exitOK, ""},
	{"templates", []string{"templates", "--json"}, exitOK, ""},
	{"read", []string{"read", "--json", "test://static-text"}, exitOK, ""},
	{"read-template", []string{"read", "--json", "test://template/42/data"}, exitOK, ""},
	{"complete", []string{"complete", "--json", "prompt", "test_prompt_with_arguments", "arg1=pa"}, exitOK, ""},
	{"discover", []string{"discover", "--json"}, exitOK, ""},
	{"ping", []string{"ping", "--json"}, exitOK, ""},
	{"read-unknown", []string{"read", "--json", "test://nowhere"}, exitUsage, "server_error"},
}

// eras are the --protocol values the golden cases run with.
var eras = []string{"modern", "legacy"}

// TestGoldenHTTP runs every golden case over streamable HTTP in both eras.
func TestGoldenHTTP(t *testing.T) {
	for _, era := range eras {
		for _, tc := range goldenCases {
			t.Run(era+"/"+tc.name, func(t *testing.T) {
				args := append(append([]string{}, tc.args...), "--protocol", era)
				args = insertTarget(args, everythingURL)
				checkGolden(t, tc.name+"."+era, runCLI(t, args...), tc.exit, tc.errCode)
			})
		}
	}
}

// TestGoldenStdio runs the same cases over stdio, with the same golden
// files: the transport must not change the output.
func TestGoldenStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process per case")
	}
	for _, era := range eras {
		for _, tc := range goldenCases {
			t.Run(era+"/"+tc.name, func(t *testing.T) {
				args := append(append([]string{}, tc.args...), "--protocol", era, "--", everythingBin)
				checkGolden(t, tc.name+"."+era, runCLI(t, args...), tc.exit, tc.errCode)
			})
		}
	}
}

// insertTarget puts the target right after the verb's arguments that
// precede the positional ones: gomcp VERB [flags] TARGET [ARGS...].
func insertTarget(args []string, target string) []string {
	out := []string{args[0]}
	rest := args[1:]
	// Flags (and their values) first, then the target, then the rest.
	var flags, pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
			if takesValue(a) && i+1 < len(rest) {
				flags = append(flags, rest[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	out = append(out, flags...)
	out = append(out, target)
	return append(out, pos...)
}

func takesValue(flagName string) bool {
	switch strings.TrimLeft(flagName, "-") {
	case "json", "task", "server-logs", "no-interactive":
		return false
	}
	return true
}

// checkGolden compares a run with its golden stdout, exit code and error
// line.
func checkGolden(t *testing.T, name string, r result, exit int, errCode string) {
	t.Helper()
	if r.code != exit {
		t.Fatalf("exit %d, want %d; stderr: %s", r.code, exit, r.stderr)
	}
	checkErrorLine(t, r, errCode)
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if r.stdout != string(want) {
		t.Errorf("stdout differs from %s:\ngot:  %s\nwant: %s", path, r.stdout, want)
	}
}

// checkErrorLine checks that a failed run wrote exactly one JSON error
// line with the code, and a successful one wrote nothing.
func checkErrorLine(t *testing.T, r result, errCode string) {
	t.Helper()
	if errCode == "" {
		if r.stderr != "" {
			t.Fatalf("stderr of a successful run: %q", r.stderr)
		}
		return
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	var line struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := jsonUnmarshal([]byte(last), &line); err != nil {
		t.Fatalf("stderr's last line is not JSON: %q: %v", last, err)
	}
	if line.Error.Code != errCode || line.Error.Message == "" {
		t.Fatalf("error line %s, want code %q and a message", last, errCode)
	}
}

// inProcessCases are golden cases against the mock fixture served by an
// in-process server (the everything-server is a main package, so it runs
// as a process).
var inProcessCases = []struct {
	name    string
	args    []string
	exit    int
	errCode string
}{
	{"mock-tools", []string{"tools", "--json"}, exitOK, ""},
	{"mock-call", []string{"call", "--json", "forecast", "city=Oslo", "days=3"}, exitOK, ""},
	{"mock-call-structured", []string{"call", "--json", "structured"}, exitOK, ""},
	{"mock-call-error", []string{"call", "--json", "broken"}, exitToolError, "tool_is_error"},
	{"mock-prompts", []string{"prompts", "--json"}, exitOK, ""},
	{"mock-prompt", []string{"prompt", "--json", "plan", "city=Lima"}, exitOK, ""},
	{"mock-resources", []string{"resources", "--json"}, exitOK, ""},
	{"mock-templates", []string{"templates", "--json"}, exitOK, ""},
	{"mock-read", []string{"read", "--json", "weather://city/Rome"}, exitOK, ""},
	{"mock-lint", []string{"lint", "--json"}, exitOK, ""},
}

// TestGoldenInProcess runs the in-process golden cases in both eras.
func TestGoldenInProcess(t *testing.T) {
	f, err := loadFixture("testdata/mock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newMockServer(f)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	defer hs.Close()
	defer h.Close()
	for _, era := range eras {
		for _, tc := range inProcessCases {
			t.Run(era+"/"+tc.name, func(t *testing.T) {
				args := insertTarget(append(append([]string{}, tc.args...), "--protocol", era), hs.URL)
				checkGolden(t, tc.name+"."+era, runCLI(t, args...), tc.exit, tc.errCode)
			})
		}
	}
}
