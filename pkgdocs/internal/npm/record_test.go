package npm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// recordedPackages are the npm packages whose latest versions
// testdata/npm/registry holds (recorded with PKGDOCS_RECORD=1): the ones
// the evaluation set asks about, and their @types packages.
var recordedPackages = []string{
	"lodash", "@types/lodash", "react", "@types/react", "@tanstack/react-query", "date-fns", "@types/date-fns",
	"@types/node", "commander", "express", "@types/express", "zod", "axios", "chalk", "debug", "@types/debug",
	"uuid", "semver", "@types/semver", "dotenv", "yargs", "@types/yargs", "fs-extra", "@types/fs-extra", "glob",
	"minimist", "@types/minimist", "moment", "classnames", "rxjs", "tslib", "ws", "@types/ws", "cors",
	"@types/cors", "jsonwebtoken", "@types/jsonwebtoken", "dayjs", "nanoid", "immer", "redux", "zustand",
	"request", "yup", "luxon", "@types/luxon", "ajv", "qs", "@types/qs", "body-parser", "@types/body-parser",
	"prop-types", "@types/prop-types", "mkdirp", "rimraf", "ioredis", "node-fetch", "inquirer", "ora", "react-dom", "@types/react-dom",
	// Packages whose declarations the ones above re-export or extend.
	"@types/express-serve-static-core", "@tanstack/query-core", "csstype", "@types/jsonfile", "minimatch",
	"path-scurry", "cli-spinners",
	// testdata/eval/npm-real.json: constructors, members through namespaces
	// and interfaces, overloads, README deprecations, long generics.
	"mongoose", "openai", "@anthropic-ai/sdk", "vue", "@vue/runtime-dom", "@vue/runtime-core", "@vue/reactivity",
	"@vue/shared", "node-sass", "tslint", "lru-cache", "eventemitter3", "p-queue", "pg", "@types/pg", "pg-protocol",
	"fastify", "joi", "socket.io", "sequelize",
}

// TestRecordNPMFixtures re-records testdata/npm/registry from the live npm
// registry. It runs only with PKGDOCS_RECORD=1.
func TestRecordNPMFixtures(t *testing.T) {
	if os.Getenv("PKGDOCS_RECORD") != "1" {
		t.Skip("set PKGDOCS_RECORD=1 to re-record npm fixtures from the live registry")
	}
	dir := "../../testdata/npm/registry"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("PKGDOCS_RECORD_ONLY")
	src := &Source{Client: fetch.New(nil)}
	cfg := FromValues(nil)
	reg := cfg.Registry("x")
	for _, name := range recordedPackages {
		if only != "" && !strings.Contains(","+only+",", ","+name+",") {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		fx, err := recordOne(ctx, src, cfg, reg, name)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		data, err := testutil.FormatNPMFixture(fx)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, strings.NewReplacer("/", "__", "@", "").Replace(name)+".txtar")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s@%s: %d files, %d bytes", name, fx.Version, len(fx.Files), len(data))
	}
}

// recordOne fetches name@latest and keeps what pkgdocs reads of it.
func recordOne(ctx context.Context, src *Source, cfg *Config, reg, name string) (testutil.NPMFixture, error) {
	body, err := src.get(ctx, cfg, reg+escapeName(name)+"/latest", 8<<20)
	if err != nil {
		return testutil.NPMFixture{}, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return testutil.NPMFixture{}, err
	}
	var vd versionDoc
	if err := json.Unmarshal(body, &vd); err != nil {
		return testutil.NPMFixture{}, err
	}
	tree, err := src.tarball(ctx, cfg, &vd)
	if err != nil {
		return testutil.NPMFixture{}, err
	}
	keep, typed := keptFiles(tree, vd.Description)
	fx := testutil.NPMFixture{Name: name, Version: vd.Version, Latest: true}
	var js *archive.Tree
	var jsKeep map[string]bool
	if !typed {
		if js, jsKeep, err = keptJSFiles(ctx, src, cfg, &vd); err != nil {
			return fx, err
		}
	}
	fx.Doc, _ = json.Marshal(trimVersionDoc(doc))
	addFiles(&fx, tree, keep)
	if js != nil {
		addFiles(&fx, js, jsKeep)
	}
	return fx, nil
}

// keptFiles returns the files of tree pkgdocs reads: package.json, the
// README, the examples, up to ten doc files, and with typings the
// declaration files the scanner reaches from the entry. typed reports
// typings.
func keptFiles(tree *archive.Tree, description string) (keep map[string]bool, typed bool) {
	keep = map[string]bool{}
	for _, n := range tree.Names() {
		lower := strings.ToLower(n)
		if n == "package.json" || !strings.Contains(n, "/") && strings.HasPrefix(lower, "readme") {
			keep[n] = true
		}
	}
	pkg, ts := extract(tree, description)
	for _, ex := range pkg.Examples {
		keep[ex.Name] = true
	}
	docs := 0
	for _, s := range pkg.Sections {
		if strings.HasPrefix(strings.ToLower(s.File), "doc") && !keep[s.File] && docs < 10 {
			keep[s.File] = true
			docs++
		}
	}
	if ts == nil {
		return keep, false
	}
	var pj packageJSON
	data, _ := tree.Get("package.json")
	_ = json.Unmarshal(data, &pj)
	for _, p := range []string{pj.Types, pj.Typings} {
		// typesVersions maps these; the entry must exist all the same.
		if p = strings.TrimPrefix(filepath.Clean(p), "./"); tree.Has(p) {
			keep[p] = true
		}
	}
	sc := &Scanner{Read: tree.Get, DefaultName: defaultName(pj.Name), Self: selfResolver(tree, pj.Name, pj.Exports)}
	sc.Scan(ts.entry)
	for _, f := range sc.Files() {
		keep[f] = true
	}
	return keep, true
}

// keptJSFiles returns, for a package of plain JavaScript, its tarball's
// JavaScript files and those whose JSDoc is read.
func keptJSFiles(ctx context.Context, src *Source, cfg *Config, vd *versionDoc) (*archive.Tree, map[string]bool, error) {
	body, err := src.tarballBody(ctx, cfg, vd)
	if err != nil {
		return nil, nil, err
	}
	js, err := unpack(vd, body, wantedJS, nil)
	if err != nil {
		return nil, nil, err
	}
	var pj packageJSON
	data, _ := js.Get("package.json")
	_ = json.Unmarshal(data, &pj)
	keep := map[string]bool{}
	for _, f := range readJSAPI(js, pj).Files {
		keep[f] = true
	}
	return js, keep, nil
}

// trimVersionDoc drops the members of a version document pkgdocs does not
// read.
func trimVersionDoc(doc map[string]json.RawMessage) map[string]json.RawMessage {
	delete(doc, "dist")
	for _, k := range []string{"_npmUser", "maintainers", "_npmOperationalInternal", "contributors", "scripts", "devDependencies", "gitHead", "_nodeVersion", "_npmVersion", "_hasShrinkwrap", "directories", "funding", "files"} {
		delete(doc, k)
	}
	return doc
}

func addFiles(fx *testutil.NPMFixture, tree *archive.Tree, keep map[string]bool) {
	for _, n := range tree.Names() {
		if keep[n] {
			data, _ := tree.Get(n)
			fx.Files = append(fx.Files, testutil.File{Name: n, Data: data})
		}
	}
}
