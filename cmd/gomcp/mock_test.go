package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// selfMain is the test binary acting as the gomcp program.
func selfMain(args ...string) []string {
	return append([]string{"env", "GOMCP_TEST_MAIN=1", os.Args[0]}, args...)
}

// mockCases are calls against testdata/mock.yaml and their output.
var mockCases = []struct {
	args []string
	exit int
	want string
}{
	{[]string{"call", "forecast", "city=Oslo", "days=3"}, 0, "Oslo: sunny for 3 days\n"},
	{[]string{"call", "broken"}, exitToolError, "the weather station is down\n"},
	{[]string{"call", "--json", "structured"}, 0, `"structuredContent":{"temp":21}`},
	{[]string{"prompt", "plan", "city=Lima"}, 0, "user: Plan a weekend in Lima.\n"},
	{[]string{"read", "weather://stations"}, 0, "Paris, Oslo, Lima\n"},
	{[]string{"read", "weather://city/Rome"}, 0, "Weather page of Rome\n"},
	{[]string{"tools"}, 0, "forecast(city:string, [days:integer])"},
	{[]string{"discover", "--json"}, 0, `"name":"weather"`},
}

// TestMockStdio serves the fixture with gomcp mock over stdio (a real
// process) and calls it in both eras.
func TestMockStdio(t *testing.T) {
	server := selfMain("mock", "testdata/mock.yaml")
	for _, era := range eras {
		for _, tc := range mockCases {
			t.Run(era+"/"+strings.Join(tc.args, " "), func(t *testing.T) {
				args := append(append(append([]string{}, tc.args...), "--protocol", era, "--"), server...)
				r := runCLI(t, args...)
				if r.code != tc.exit || !strings.Contains(r.stdout, tc.want) {
					t.Fatalf("exit %d, stdout %q; want exit %d and %q; stderr %s", r.code, r.stdout, tc.exit, tc.want, r.stderr)
				}
			})
		}
	}
}

// TestMockHTTP serves the fixture with gomcp mock --http in-process.
func TestMockHTTP(t *testing.T) {
	url := startServing(t, "mock", "--http", "127.0.0.1:0", "testdata/mock.yaml")
	for _, era := range eras {
		for _, tc := range mockCases {
			t.Run(era+"/"+strings.Join(tc.args, " "), func(t *testing.T) {
				args := insertTarget(append(append([]string{}, tc.args...), "--protocol", era), url)
				r := runCLI(t, args...)
				if r.code != tc.exit || !strings.Contains(r.stdout, tc.want) {
					t.Fatalf("exit %d, stdout %q; want exit %d and %q; stderr %s", r.code, r.stdout, tc.exit, tc.want, r.stderr)
				}
			})
		}
	}
}

// startServing runs a serving verb in-process until the test ends and
// returns the URL it announces on stderr.
func startServing(t *testing.T, args ...string) string {
	t.Helper()
	env, _, errw := testEnv(t, "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- run(ctx, env, args) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("%s exited %d: %s", args[0], code, errw.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, after, ok := strings.Cut(errw.String(), "listening on "); ok {
			return strings.TrimSpace(after)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s did not announce its address: %s", args[0], errw.String())
	return ""
}

// TestFixtureErrors checks that bad fixtures are refused with a reason.
func TestFixtureErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"typo", "tols: []", "tols"},
		{"duplicate key", "server: {name: a}\nserver: {name: b}", "already defined"},
		{"tool without name", "tools: [{description: x}]", "no name"},
		{"bad result", "tools: [{name: t, result: {content: 3}}]", "result"},
		{"not YAML", "tools: [", "yaml"},
		{"case", "Tools: []", "Tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFixture([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("parseFixture = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := newMockServer(&fixture{Resources: []fixtureResource{{URI: "relative"}}}); err == nil {
		t.Fatal("a relative resource URI was accepted")
	}
	r := runCLI(t, "mock", "testdata/nonexistent.yaml")
	if r.code != exitUsage {
		t.Fatalf("mock of a missing file: exit %d", r.code)
	}
	checkErrorLine(t, r, "usage")
}

func FuzzParseFixture(f *testing.F) {
	data, _ := os.ReadFile("testdata/mock.yaml")
	f.Add(data)
	f.Add([]byte(`{"tools":[{"name":"t","text":"{{a}}"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := parseFixture(data)
		if err != nil {
			return
		}
		_, _ = newMockServer(fx)
		_ = fill("{{a}} {{ b }}", map[string]any{"a": 1})
	})
}
