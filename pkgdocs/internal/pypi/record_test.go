package pypi

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// recordedDists are the distributions of testdata/eval/projects/python.txtar,
// chosen for their layouts: re-exports from private modules (requests,
// click, attrs, trio-like chains in jinja2), lazy __getattr__ tables
// (pydantic, whose pydantic-core names are documented from pydantic-core), inheritance across modules (flask), star imports,
// subpackages (dateutil, boto3), C extensions with typed stubs (orjson,
// rpds, markupsafe, wrapt, regex) and single-module distributions.
var recordedDists = []string{
	"requests", "pydantic", "pydantic-core", "flask", "click", "jinja2", "boto3", "attrs", "python-dateutil",
	"markupsafe", "itsdangerous", "blinker", "orjson", "rpds-py", "sortedcontainers", "typing-extensions",
	"annotated-types", "sniffio", "outcome", "python-dotenv", "xmltodict", "wrapt", "referencing", "six",
	"jmespath", "regex", "typing-inspection", "certifi",
	"pydantic-settings",
}

// recordSite is where the project's recorded site-packages sit.
const recordSite = ".venv/lib/python3.11/site-packages/"

// txtarMarker is a line txtar would read as the start of a file.
var txtarMarker = regexp.MustCompile(`(?m)^-- .* --$`)

// TestRecordSitePackages re-records testdata/eval/projects/python.txtar
// from a real site-packages directory (PKGDOCS_SITE_PACKAGES, default the
// interpreter of these machines): for each distribution its METADATA,
// top_level.txt, the Python files pkgdocs scans for it (its public
// modules and the private modules they import from), and its RECORD
// trimmed to those files. It runs only with PKGDOCS_RECORD=1.
func TestRecordSitePackages(t *testing.T) {
	if os.Getenv("PKGDOCS_RECORD") != "1" {
		t.Skip("set PKGDOCS_RECORD=1 to re-record the Python project from an installed site-packages")
	}
	site := os.Getenv("PKGDOCS_SITE_PACKAGES")
	if site == "" {
		site = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"
	}
	ar := &txtar.Archive{Comment: []byte("A project whose virtual environment holds distributions pip installed,\n" +
		"recorded from " + site + " by TestRecordSitePackages (PKGDOCS_RECORD=1):\n" +
		"each distribution's METADATA, top_level.txt, the Python files pkgdocs scans\n" +
		"and its RECORD trimmed to them. File contents are as installed.\n")}
	for _, name := range recordedDists {
		files, err := recordDist(site, Normalize(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ar.Files = append(ar.Files, files...)
	}
	out := filepath.Join("..", "..", "testdata", "eval", "projects", "python.txtar")
	data := txtar.Format(ar)
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d files, %d bytes", out, len(ar.Files), len(data))
}

// recordDist returns the recorded files of one installed distribution.
func recordDist(site, norm string) ([]txtar.File, error) {
	di := distInfoIn(site, norm)
	if di == "" {
		return nil, fmt.Errorf("not installed in %s", site)
	}
	tree, err := readInstalled(site, di)
	if err != nil {
		return nil, err
	}
	info := inspectDist(tree)
	if info.truncated {
		return nil, fmt.Errorf("too large to record whole: pkgdocs reads only part of it")
	}
	keep := map[string]bool{}
	for _, f := range append([]string{di + "/METADATA", di + "/top_level.txt"}, info.read...) {
		if _, ok := tree.Get(f); ok {
			keep[f] = true
		}
	}
	record, err := os.ReadFile(filepath.Join(site, di, "RECORD"))
	if err != nil {
		return nil, err
	}
	var trimmed bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(record))
	for sc.Scan() {
		if rel, _, _ := strings.Cut(sc.Text(), ","); keep[rel] {
			trimmed.WriteString(sc.Text() + "\n")
		}
	}
	names := make([]string, 0, len(keep))
	for f := range keep {
		names = append(names, f)
	}
	sort.Strings(names)
	out := []txtar.File{{Name: recordSite + di + "/RECORD", Data: trimmed.Bytes()}}
	for _, f := range names {
		data, _ := tree.Get(f)
		if txtarMarker.Match(data) {
			return nil, fmt.Errorf("%s has a line txtar would read as a file marker", f)
		}
		out = append(out, txtar.File{Name: recordSite + f, Data: data})
	}
	return out, nil
}
