package jsonschema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/jsonschema"
)

// The official JSON-Schema-Test-Suite (testdata/JSON-Schema-Test-Suite, see
// its SOURCE file) is run for draft 2020-12 and draft-07, four times each:
// instances decoded with encoding/json into float64s, decoded with
// UseNumber, and given as raw JSON to ValidateJSON; and with every schema
// (and remote) marshaled and unmarshaled again before use, to show that a
// round trip through JSON keeps the meaning of every schema.

const suiteRoot = "testdata/JSON-Schema-Test-Suite"

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteLoader serves the suite's remotes/ directory as http://localhost:1234/.
// Nothing else is reachable; the meta-schemas must come from the package.
func suiteLoader(t *testing.T, roundTrip bool) jsonschema.Loader {
	return func(u *url.URL) (*jsonschema.Schema, error) {
		if u.Host == "json-schema.org" {
			t.Errorf("Loader asked for %s, which must be built in", u)
		}
		if u.Scheme != "http" || u.Host != "localhost:1234" {
			return nil, fmt.Errorf("unexpected remote reference %s", u)
		}
		p := filepath.Join(suiteRoot, "remotes", filepath.FromSlash(strings.TrimPrefix(u.Path, "/")))
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return decodeSuiteSchema(data, roundTrip)
	}
}

// decodeSuiteSchema unmarshals a schema, and if roundTrip is set marshals
// and unmarshals it again.
func decodeSuiteSchema(data []byte, roundTrip bool) (*jsonschema.Schema, error) {
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(data, s); err != nil {
		return nil, err
	}
	if !roundTrip {
		return s, nil
	}
	out, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	s2 := new(jsonschema.Schema)
	if err := json.Unmarshal(out, s2); err != nil {
		return nil, fmt.Errorf("unmarshal of marshaled %s: %w", out, err)
	}
	return s2, nil
}

type suiteMode string

const (
	modeFloat  suiteMode = "float64"
	modeNumber suiteMode = "useNumber"
	modeJSON   suiteMode = "validateJSON"
	modeRound  suiteMode = "roundTrip"
)

// suiteCount counts passing tests per part (required, optional, format).
type suiteCount struct {
	pass, total map[string]int
	failures    map[string]bool // "draft/file | group | test" of failed optional tests
}

func suitePart(file string) string {
	switch {
	case strings.HasPrefix(file, "optional/format/"):
		return "format"
	case strings.HasPrefix(file, "optional/"):
		return "optional"
	}
	return "required"
}

func TestSuite(t *testing.T) {
	known := readKnownFailures(t)
	for _, draft := range []string{"draft2020-12", "draft7"} {
		for _, mode := range []suiteMode{modeFloat, modeNumber, modeJSON, modeRound} {
			t.Run(draft+"/"+string(mode), func(t *testing.T) {
				counts := &suiteCount{pass: map[string]int{}, total: map[string]int{}, failures: map[string]bool{}}
				root := filepath.Join(suiteRoot, "tests", draft)
				err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
						return err
					}
					rel, _ := filepath.Rel(root, path)
					runSuiteFile(t, draft, filepath.ToSlash(rel), path, mode, counts, known)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				checkSuiteCounts(t, draft, mode, counts, known)
			})
		}
	}
}

// Targets from the issue.
var suiteTargets = map[string]map[string]int{
	"draft2020-12": {"required": 1299, "optional": 161, "format": 700},
	"draft7":       {"required": 927},
}

func checkSuiteCounts(t *testing.T, draft string, mode suiteMode, c *suiteCount, known map[string]string) {
	for _, part := range []string{"required", "optional", "format"} {
		t.Logf("%s %s %s: %d/%d passed", draft, mode, part, c.pass[part], c.total[part])
		if min, ok := suiteTargets[draft][part]; ok && c.pass[part] < min {
			t.Errorf("%s %s %s: %d passed, want at least %d", draft, mode, part, c.pass[part], min)
		}
	}
	if c.pass["required"] != c.total["required"] {
		t.Errorf("%s %s: %d required tests fail", draft, mode, c.total["required"]-c.pass["required"])
	}
	// Every optional failure must be listed, and every listed test must fail.
	for key := range known {
		if !strings.HasPrefix(key, draft+"/") {
			continue
		}
		if !c.failures[key] {
			t.Errorf("stale entry in testdata/suite-known-failures.txt (now passes in %s): %s", mode, key)
		}
	}
}

// readKnownFailures reads testdata/suite-known-failures.txt: lines of
// "draft/file | group | test  # reason".
func readKnownFailures(t *testing.T) map[string]string {
	f, err := os.Open("testdata/suite-known-failures.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, "#")
		known[strings.TrimSpace(key)] = strings.TrimSpace(reason)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known
}

func runSuiteFile(t *testing.T, draft, rel, path string, mode suiteMode, c *suiteCount, known map[string]string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var groups []suiteGroup
	if err := json.Unmarshal(data, &groups); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	part := suitePart(rel)
	opts := &jsonschema.ResolveOptions{
		Loader:       suiteLoader(t, mode == modeRound),
		AssertFormat: part == "format",
		// Draft-07 allowed content assertion; its optional tests expect it.
		AssertContent: draft == "draft7" && rel == "optional/content.json",
		MaxErrors:     -1,
	}
	if draft == "draft7" {
		opts.DefaultDialect = jsonschema.Draft7
	}
	for _, g := range groups {
		rs, compileErr := compileSuiteSchema(g.Schema, opts, mode == modeRound)
		for _, tc := range g.Tests {
			key := draft + "/" + rel + " | " + g.Description + " | " + tc.Description
			name := rel + "/" + g.Description + "/" + tc.Description
			passed := false
			t.Run(name, func(t *testing.T) {
				if compileErr != nil {
					suiteFailure(t, part, key, known, "compile: %v", compileErr)
					return
				}
				err := validateWithTimeout(rs, tc.Data, mode)
				var ve *jsonschema.ValidationError
				switch {
				case err != nil && !asValidationError(err, &ve):
					suiteFailure(t, part, key, known, "validate: %v", err)
				case (err == nil) != tc.Valid:
					suiteFailure(t, part, key, known, "valid = %v, want %v (error: %v)", err == nil, tc.Valid, err)
				default:
					passed = true
				}
			})
			c.total[part]++
			if passed {
				c.pass[part]++
			} else if part != "required" {
				c.failures[key] = true
			}
		}
	}
}

// suiteFailure fails the test unless it is an optional test listed as a
// known failure.
func suiteFailure(t *testing.T, part, key string, known map[string]string, format string, args ...any) {
	t.Helper()
	if _, ok := known[key]; ok && part != "required" {
		t.Logf("known failure: "+format, args...)
		return
	}
	t.Errorf(format, args...)
}

func asValidationError(err error, ve **jsonschema.ValidationError) bool {
	v, ok := err.(*jsonschema.ValidationError)
	*ve = v
	return ok
}

func compileSuiteSchema(raw json.RawMessage, opts *jsonschema.ResolveOptions, roundTrip bool) (rs *jsonschema.Resolved, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	s, err := decodeSuiteSchema(raw, roundTrip)
	if err != nil {
		return nil, err
	}
	return s.Resolve(opts)
}

// validateWithTimeout validates in a goroutine, turning a panic or a hang
// (5 s) into an error.
func validateWithTimeout(rs *jsonschema.Resolved, data json.RawMessage, mode suiteMode) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		switch mode {
		case modeJSON, modeRound:
			done <- rs.ValidateJSON(data)
			return
		case modeNumber:
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				done <- fmt.Errorf("decode: %w", err)
				return
			}
			done <- rs.Validate(v)
		default:
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				done <- fmt.Errorf("decode: %w", err)
				return
			}
			done <- rs.Validate(v)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		return fmt.Errorf("timed out after 5s")
	}
}

// TestSuiteKnownFailuresFile checks that every entry of
// testdata/suite-known-failures.txt gives a reason. (It is empty today:
// every test passes.)
func TestSuiteKnownFailuresFile(t *testing.T) {
	for key, reason := range readKnownFailures(t) {
		if reason == "" {
			t.Errorf("known failure without a reason: %s", key)
		}
	}
}

// TestSuiteFormatAnnotation runs the draft 2020-12 format tests with format
// assertion off (the default): format is then only an annotation, so
// exactly the tests that expect "valid" pass and nothing is rejected.
func TestSuiteFormatAnnotation(t *testing.T) {
	root := filepath.Join(suiteRoot, "tests", "draft2020-12", "optional", "format")
	files, err := filepath.Glob(filepath.Join(root, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no format tests: %v", err)
	}
	passed, expectValid := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatal(err)
		}
		for _, g := range groups {
			rs, err := compileSuiteSchema(g.Schema, &jsonschema.ResolveOptions{Loader: suiteLoader(t, false)}, false)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, tc := range g.Tests {
				err := rs.ValidateJSON(tc.Data)
				if err != nil {
					t.Errorf("%s / %s / %s: rejected with assertion off: %v", filepath.Base(path), g.Description, tc.Description, err)
				}
				if tc.Valid {
					expectValid++
				}
				if (err == nil) == tc.Valid {
					passed++
				}
			}
		}
	}
	t.Logf("draft2020-12 format, assertion off: %d passed, %d expect valid", passed, expectValid)
	if passed != expectValid || expectValid != 376 {
		t.Errorf("passed %d, want exactly the %d expect-valid tests (376)", passed, expectValid)
	}
}
