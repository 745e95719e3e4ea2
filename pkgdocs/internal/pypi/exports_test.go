package pypi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// layoutSymbols reads testdata/python/layouts.txtar as an installed
// distribution would be read.
func layoutSymbols(t *testing.T) *model.Package {
	t.Helper()
	files := map[string][]byte{}
	for _, f := range testutil.TxtarFile(t, "../../testdata/python/layouts.txtar") {
		files[f.Name] = f.Data
	}
	info := inspectDist(archive.FromFiles(files))
	return &model.Package{Name: "layouts", Ecosystem: model.Python, Symbols: info.symbols}
}

// TestExportsByPublicPath: every name is found by the path users write,
// with where it is defined.
func TestExportsByPublicPath(t *testing.T) {
	p := layoutSymbols(t)
	byName := map[string]model.Symbol{}
	for _, s := range p.Symbols {
		byName[s.Name] = s
	}
	tests := []struct {
		name, kind, definedIn string
		why                   string
	}{
		{"layouts.run", "function", "layouts._core", "from ._core import run"},
		{"layouts.Runner", "class", "layouts._core", "a class from a private module"},
		{"layouts.Runner.start", "method", "layouts._core", "its own method"},
		{"layouts.starred", "function", "layouts.stars", "a star import of a module with __all__"},
		{"layouts.open_star", "function", "layouts._impl", "a star import of a module without __all__, which imported it"},
		{"layouts.sub.deep", "function", "layouts.sub._deep", "a subpackage's star import"},
		{"layouts.helper", "function", "layouts.compat", "an explicit re-export"},
		{"layouts.Environment", "class", "layouts.env", "a class beside a module of the same name in other case"},
		{"layouts.Lazy", "class", "layouts._lazy_impl", "a branch of a module __getattr__"},
		{"layouts.Eager", "function", "layouts._lazy_impl", "an 'if name in (...)' branch of a module __getattr__"},
		{"layouts.Other", "class", "layouts._lazy_impl", "the other name of that branch"},
		{"layouts.lazy.Model", "class", "layouts._models", "an entry of a lazy import table"},
		{"layouts.Thing", "re-export", "other_dist", "another distribution's name, re-exported on purpose"},
		{"layouts.environment", "module", "", "the module"},
	}
	for _, tt := range tests {
		s, ok := byName[tt.name]
		if !ok {
			t.Errorf("%s (%s): not found", tt.name, tt.why)
			continue
		}
		if s.Kind != tt.kind || s.DefinedIn != tt.definedIn {
			t.Errorf("%s (%s): %s defined in %q, want %s defined in %q", tt.name, tt.why, s.Kind, s.DefinedIn, tt.kind, tt.definedIn)
		}
	}
	for _, absent := range []string{"layouts.Any", "layouts.stars.hidden_by_all", "layouts._core.run", "layouts.nostars._private", "layouts._base.Mixin", "layouts.sub.helper"} {
		if _, ok := byName[absent]; ok {
			t.Errorf("%s is listed", absent)
		}
	}
	if a := byName["layouts.lazy.Model"].Aliases; len(a) != 1 || a[0] != "layouts.lazy.Alias" {
		t.Errorf("Model's aliases = %v, want the table's other name", a)
	}
}

// TestInheritedMembers: a class gets its bases' members in method
// resolution order, marked inherited and hidden from the index.
func TestInheritedMembers(t *testing.T) {
	p := layoutSymbols(t)
	x := render.NewSymbolIndex(p)
	stop := x.Find("Runner.stop")
	if len(stop) != 1 || !stop[0].Inherited || !stop[0].Hidden || stop[0].DefinedIn != "layouts._base.Timed" || stop[0].Doc != "Timed's stop wins (C3 order)." {
		t.Fatalf("Runner.stop = %+v", stop)
	}
	start := x.Find("layouts.Runner.start")
	if len(start) != 1 || start[0].Inherited {
		t.Fatalf("Runner.start = %+v, want its own", start)
	}
	var text strings.Builder
	for _, b := range x.Blocks("Runner") {
		text.WriteString(b.Text)
	}
	for _, want := range []string{"*Defined in layouts._core (layouts/_core.py).*", "- `def start(self)` — Starts, overriding the base.", "  - inherited from layouts._base.Mixin: `pause`", "  - inherited from layouts._base.Timed: `stop`"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("Runner's answer lacks %q:\n%s", want, text.String())
		}
	}
}

// TestExactCaseWins: a name in its exact case answers before another
// differing only in case; members come after top-level names.
func TestExactCaseWins(t *testing.T) {
	x := render.NewSymbolIndex(layoutSymbols(t))
	for name, want := range map[string]string{"Environment": "layouts.Environment", "environment": "layouts.environment", "start": "layouts.Runner.start"} {
		if got := x.Find(name); len(got) == 0 || got[0].Name != want {
			t.Errorf("Find(%q) = %v, want %s first", name, got, want)
		}
	}
}

func TestParseImport(t *testing.T) {
	tests := map[string][]PyImport{
		"from ._core import run, Runner as R": {{Module: "._core", Name: "run", As: "run"}, {Module: "._core", Name: "Runner", As: "R"}},
		"from . import (a, b as b)":           {{Module: ".", Name: "a", As: "a"}, {Module: ".", Name: "b", As: "b", Reexport: true}},
		"from .x import *":                    {{Module: ".x", Name: "*"}},
		"import a.b.c, d as e":                {{Module: "a", As: "a"}, {Module: "d", As: "e"}},
		"from ..pkg.mod import name":          {{Module: "..pkg.mod", Name: "name", As: "name"}},
	}
	for src, want := range tests {
		got, ok := parseImport(src)
		if !ok || len(got) != len(want) {
			t.Errorf("%q: %+v", src, got)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q: [%d] = %+v, want %+v", src, i, got[i], want[i])
			}
		}
	}
	if _, ok := parseImport("important = 1"); ok {
		t.Error("an assignment read as an import")
	}
}

func TestLazyTables(t *testing.T) {
	tests := map[string][]PyImport{
		`_dynamic_imports = {'BaseModel': (__spec__.parent, '.main'), 'dataclasses': (__spec__.parent, '__module__')}`: {
			{Module: ".main", Name: "BaseModel", As: "BaseModel"}, {Module: ".", Name: "dataclasses", As: "dataclasses"}},
		`_lazy = {'ValidationError': ('pydantic_core', '.')}`:       {{Module: "pydantic_core", Name: "ValidationError", As: "ValidationError"}},
		`_lazy = {"Model": "pkg.models", "Other": ("._m", "Real")}`: {{Module: "pkg.models", Name: "Model", As: "Model"}, {Module: "._m", Name: "Real", As: "Other"}},
		`submod_attrs = {'linalg': ['solve', 'inv']}`:               {{Module: ".linalg", Name: "solve", As: "solve"}, {Module: ".linalg", Name: "inv", As: "inv"}},
	}
	for src, want := range tests {
		var z lazyScan
		z.hasGetattr = true
		z.table(src)
		got := z.result()
		if len(got) != len(want) {
			t.Errorf("%s: %+v", src, got)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: [%d] = %+v, want %+v", src, i, got[i], want[i])
			}
		}
	}
	var z lazyScan
	z.table(`_table = {'A': '.a'}`)
	if z.result() != nil {
		t.Error("a table counts without a module __getattr__")
	}
}

func FuzzImports(f *testing.F) {
	for _, s := range []string{"from ._core import (a, b as c)", "import a.b as c, d", "x = {'A': (__spec__.parent, '.m'), 'b': ['c']}", "x = {'a': ('p', '.')}", "if name == 'X':"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		parseImport(line)
		var z lazyScan
		z.hasGetattr = true
		z.table(line)
		z.pending = "X"
		z.getattrLine(line)
		if len(z.result()) > 2*maxLazy {
			t.Fatalf("%d lazy names", len(z.result()))
		}
	})
}

// TestReexportFromSibling: a name re-exported from another distribution
// installed beside it is documented from that distribution.
func TestReexportFromSibling(t *testing.T) {
	site := t.TempDir()
	for name, text := range map[string]string{
		"a-1.0.dist-info/METADATA":      "Metadata-Version: 2.1\nName: a\nVersion: 1.0\n",
		"a-1.0.dist-info/RECORD":        "a/__init__.py,,\n",
		"a/__init__.py":                 "from b_core import Thing as Thing\nfrom b_core import Missing as Missing\n\nclass Sub(Thing):\n    pass\n",
		"b_core-2.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: b-core\nVersion: 2.0\n",
		"b_core-2.0.dist-info/RECORD":   "b_core/__init__.py,,\nb_core/_impl.py,,\n",
		"b_core/__init__.py":            "from ._impl import Thing\n__all__ = ['Thing']\n",
		"b_core/_impl.py":               "class Thing:\n    \"\"\"A thing from b-core.\"\"\"\n    def use(self): ...\n",
	} {
		p := filepath.Join(site, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, err := describeInstalled(site, "a-1.0.dist-info")
	if err != nil {
		t.Fatal(err)
	}
	x := render.NewSymbolIndex(pkg)
	thing := x.Find("a.Thing")
	if len(thing) != 1 || thing[0].Kind != "class" || thing[0].Doc != "A thing from b-core." || thing[0].Package != "b-core@2.0" || thing[0].DefinedIn != "b_core._impl" {
		t.Fatalf("a.Thing = %+v", thing)
	}
	if use := x.Find("a.Thing.use"); len(use) != 1 {
		t.Errorf("a.Thing.use = %+v", use)
	}
	if use := x.Find("a.Sub.use"); len(use) != 1 || !use[0].Inherited || use[0].DefinedIn != "b_core.Thing" || use[0].Package != "b-core@2.0" {
		t.Errorf("a.Sub.use = %+v, want inherited from b-core's Thing", use)
	}
	if missing := x.Find("a.Missing"); len(missing) != 1 || missing[0].Kind != "re-export" || !strings.Contains(missing[0].Doc, "Re-exported from b_core") {
		t.Errorf("a.Missing = %+v, want the stub naming where it comes from", missing)
	}
}
