package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// evalQuestion is one question of the evaluation set: what a coding agent
// asks (a package, optionally a symbol or a search query) and the facts a
// good answer holds on its first page.
type evalQuestion struct {
	ID      string   `json:"id"`
	Eco     string   `json:"eco"`
	Package string   `json:"package"`
	Symbol  string   `json:"symbol,omitempty"`
	Query   string   `json:"query,omitempty"`
	Facts   []string `json:"facts"`
	Note    string   `json:"note,omitempty"` // why a question is expected to fail, if it is

	// Project names a project directory recorded from real artefacts:
	// testdata/eval/projects/<Project>.txtar, unpacked into a temporary
	// directory and passed as projectPath. Such questions are asked of an
	// offline service: the answer comes from the project's installation.
	Project string `json:"project,omitempty"`
	// Recorded says which artefact and version the fixture was recorded
	// from (for example "site-packages of pip's requests 2.32.3").
	Recorded string `json:"recorded,omitempty"`
	file     string // the question file it came from
}

// evalBudget is the goal: every fact on page 1 within this many tokens.
const evalBudget = 3000

// evalDir holds the question files (every *.json) and, under projects/,
// the recorded project directories some questions name.
const evalDir = "../../testdata/eval"

// loadQuestions reads every question file of evalDir. A question without
// a note must pass; one with a note says why it is expected to fail.
func loadQuestions(t testing.TB) []evalQuestion {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(evalDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no question files in %s: %v", evalDir, err)
	}
	sort.Strings(files)
	var all []evalQuestion
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var qs []evalQuestion
		if err := json.Unmarshal(data, &qs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i := range qs {
			if seen[qs[i].ID] {
				t.Fatalf("%s: question %q asked twice", f, qs[i].ID)
			}
			seen[qs[i].ID] = true
			qs[i].file = filepath.Base(f)
		}
		all = append(all, qs...)
	}
	return all
}

// evalProject unpacks testdata/eval/projects/<name>.txtar once per test
// into a temporary directory and returns its path.
func evalProject(t testing.TB, dirs map[string]string, name string) (string, error) {
	if d, ok := dirs[name]; ok {
		return d, nil
	}
	if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("bad project name %q", name)
	}
	dir := filepath.Join(t.TempDir(), name)
	for _, f := range testutil.TxtarFile(t, filepath.Join(evalDir, "projects", name+".txtar")) {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return "", err
		}
	}
	dirs[name] = dir
	return dir, nil
}

// projectService returns the offline service that answers questions about
// a recorded project: nothing but the project's own installation (and,
// for Rust, the Cargo home recorded in it, <project>/cargo-home).
func projectService(t testing.TB, dir string) *Service {
	t.Helper()
	s, err := New(&Config{
		Client:     fetch.New(&fetch.Options{BaseBackoff: time.Millisecond, Retries: -1}),
		GOMODCACHE: filepath.Join(dir, "gomodcache"),
		Offline:    true,
		CacheDir:   "",
		Rust:       RustConfig{CargoHome: filepath.Join(dir, "cargo-home"), DocsURL: "off"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// evalService answers from recorded fixtures: npm packages and Go modules
// recorded from the live registries, Python, Rust and Swift fixtures
// written from their documented formats. With PKGDOCS_LIVE=1 npm and Go
// questions go to the live npm registry and Go module proxy instead.
func evalService(t testing.TB, live bool) *Service {
	t.Helper()
	s, err := New(evalConfig(t, live))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// evalConfig starts the fixture servers and returns a configuration using
// them.
func evalConfig(t testing.TB, live bool) *Config {
	t.Helper()
	u := newUpstream(t)
	cfg := &Config{
		Client:     fetch.New(&fetch.Options{BaseBackoff: time.Millisecond, Retries: -1}),
		GOMODCACHE: t.TempDir(),
		Python:     PythonConfig{IndexURL: u.URL + "/pypi"},
		Rust:       RustConfig{APIURL: u.URL + "/crates", DownloadURL: u.URL + "/static", DocsURL: u.URL + "/docsrs"},
		Swift:      SwiftConfig{GitURL: u.URL + "/git", CodeloadURL: u.URL + "/codeload"},
	}
	if live {
		cfg.Client = fetch.New(nil)
		cfg.GOPROXY = "https://proxy.golang.org"
		cfg.NPM = NPMConfig{Values: map[string]string{}}
	} else {
		cfg.GOPROXY = testutil.NewGoProxy(t, "../../testdata/go/proxy").URL
		cfg.NPM = NPMConfig{Values: map[string]string{"registry": testutil.NewNPMRegistry(t, "../../testdata/npm/registry").URL + "/"}}
	}
	return cfg
}

// ask answers one question with the tool an agent would call, at the
// default budget, page 1; project is the question's project directory, if
// it names one.
func ask(ctx context.Context, s *Service, q evalQuestion, project string) (string, int, error) {
	if q.Query != "" {
		res, err := s.SearchPackageDocs(ctx, SearchArgs{Package: q.Package, Language: q.Eco, Query: q.Query, ProjectPath: project})
		if err != nil {
			return "", 0, err
		}
		return res.Markdown, render.Tokens(res.Markdown), nil
	}
	var res *DocResult
	var err error
	switch q.Eco {
	case "npm":
		res, err = s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: q.Package, Symbol: q.Symbol, ProjectPath: project})
	case "go":
		res, err = s.DescribeGoPackage(ctx, DescribeGoArgs{Package: q.Package, Symbol: q.Symbol, ProjectPath: project})
	case "python":
		res, err = s.DescribePythonPackage(ctx, DescribeArgs{Package: q.Package, Symbol: q.Symbol, ProjectPath: project})
	case "rust":
		res, err = s.DescribeRustPackage(ctx, DescribeArgs{Package: q.Package, Symbol: q.Symbol, ProjectPath: project})
	case "swift":
		res, err = s.DescribeSwiftPackage(ctx, DescribeArgs{Package: q.Package, Symbol: q.Symbol, ProjectPath: project})
	default:
		return "", 0, fmt.Errorf("unknown ecosystem %q", q.Eco)
	}
	if err != nil {
		return "", 0, err
	}
	return res.Markdown, res.Tokens, nil
}

// TestEvaluationSet asks every question of testdata/eval and checks its
// facts are on page 1 within 3,000 tokens. It reports the pass rate per
// ecosystem and per question file (go test -run TestEvaluationSet -v) and
// fails when a question without a note fails.
func TestEvaluationSet(t *testing.T) {
	live := os.Getenv("PKGDOCS_LIVE") == "1"
	qs := loadQuestions(t)
	counts := map[string]int{}
	for _, q := range qs {
		counts[q.Eco]++
	}
	if len(qs) < 60 || counts["npm"] < 30 || len(counts) < 5 {
		t.Fatalf("the evaluation set has %d questions (%v); want at least 60 over five ecosystems, 30 of them npm", len(qs), counts)
	}
	s := evalService(t, live)
	projects := map[string]string{}
	projectServices := map[string]*Service{}
	type tally struct{ passed, asked int }
	byEco, byFile := map[string]*tally{}, map[string]*tally{}
	var failures []string
	unexpected := 0
	for _, q := range qs {
		svc, project := s, ""
		if q.Project != "" {
			if live {
				continue // a recorded installation: nothing live to ask
			}
			dir, err := evalProject(t, projects, q.Project)
			if err != nil {
				t.Fatalf("%s: %v", q.ID, err)
			}
			if projectServices[dir] == nil {
				projectServices[dir] = projectService(t, dir)
			}
			svc, project = projectServices[dir], dir
		} else if live && q.Eco != "npm" && q.Eco != "go" {
			continue // not reachable live: asked of fixtures only
		}
		for _, k := range []struct {
			m   map[string]*tally
			key string
		}{{byEco, q.Eco}, {byFile, q.file}} {
			if k.m[k.key] == nil {
				k.m[k.key] = &tally{}
			}
			k.m[k.key].asked++
		}
		failure := askEvalQuestion(t, svc, q, project)
		if failure == "" {
			byEco[q.Eco].passed++
			byFile[q.file].passed++
			continue
		}
		if q.Note != "" {
			failure += " (expected: " + q.Note + ")"
		} else {
			unexpected++
		}
		failures = append(failures, failure)
	}
	total, asked := 0, 0
	for _, eco := range []string{"npm", "go", "python", "rust", "swift"} {
		if c := byEco[eco]; c != nil {
			t.Logf("%-6s %d/%d", eco, c.passed, c.asked)
			total += c.passed
			asked += c.asked
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Logf("  %-22s %d/%d", f, byFile[f].passed, byFile[f].asked)
	}
	t.Logf("pass rate: %d/%d (%.0f%%)", total, asked, 100*float64(total)/float64(asked))
	for _, f := range failures {
		t.Log("FAIL " + f)
	}
	if !live && unexpected > 0 {
		t.Errorf("%d questions without a note failed", unexpected)
	}
}

// askEvalQuestion asks q of svc and returns why it failed (an error,
// page 1 over evalBudget tokens, or facts missing from it), or "" if it
// passed. PKGDOCS_EVAL_SHOW set to q's ID logs the answer.
func askEvalQuestion(t *testing.T, svc *Service, q evalQuestion, project string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	md, tokens, err := ask(ctx, svc, q, project)
	cancel()
	if os.Getenv("PKGDOCS_EVAL_SHOW") == q.ID {
		t.Logf("%s (%d tokens, %v):\n%s", q.ID, tokens, err, md)
	}
	var missing []string
	for _, f := range q.Facts {
		if !strings.Contains(md, f) {
			missing = append(missing, f)
		}
	}
	switch {
	case err != nil:
		return fmt.Sprintf("%s: error: %v", q.ID, err)
	case tokens > evalBudget:
		return fmt.Sprintf("%s: page 1 is %d tokens", q.ID, tokens)
	case len(missing) > 0:
		return fmt.Sprintf("%s: missing %q", q.ID, missing)
	}
	return ""
}

// TestBounds: argument limits a client cannot get around.
func TestBounds(t *testing.T) {
	s := evalService(t, false)
	ctx := context.Background()
	res, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@types/node", MaxTokens: 50000})
	if err != nil || res.Tokens > 8000 || res.Pages < 2 || res.NextPage != 2 {
		t.Fatalf("maxTokens 50000: %v; %d tokens, %d pages", err, res.Tokens, res.Pages)
	}
	last, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@types/node", MaxTokens: 50000, Page: res.Pages})
	if err != nil || last.NextPage != 0 {
		t.Fatalf("last page: %v", err)
	}
	for _, page := range []int{res.Pages + 1, -1} {
		if _, err := s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "@types/node", MaxTokens: 50000, Page: page}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("page %d: %v, want an invalid argument", page, err)
		}
	}
	for _, args := range []DescribeGoArgs{
		{Package: "github.com/google/uuid", GOOS: "../../x"},
		{Package: "github.com/google/uuid", GOARCH: "amd64; rm"},
	} {
		if _, err := s.DescribeGoPackage(ctx, args); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: %v, want an invalid argument", args, err)
		}
	}
	if _, err := s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "github.com/google/uuid", GOOS: "windows", GOARCH: "arm64"}); err != nil {
		t.Errorf("a real target: %v", err)
	}
}
