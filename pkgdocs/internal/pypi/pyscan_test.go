package pypi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func wheelFiles(t testing.TB) []testutil.File {
	return testutil.TxtarFile(t, "../../testdata/python/tinyhttp.txtar")
}

func fileMap(files []testutil.File) map[string][]byte {
	m := map[string][]byte{}
	for _, f := range files {
		m[f.Name] = f.Data
	}
	return m
}

func defList(m *PyModule) string {
	var out []string
	for _, d := range m.Defs {
		out = append(out, d.Kind+" "+d.Name)
	}
	return strings.Join(out, "\n")
}

func TestScanPythonModule(t *testing.T) {
	m := ScanPython(fileMap(wheelFiles(t))["tinyhttp/sessions.py"])
	if m.Doc != "Sessions keep settings across requests." {
		t.Errorf("module doc = %q", m.Doc)
	}
	want := `class Session
property Session.timeout
method Session.__init__
property Session.base_url
method Session.get
property Session.closed
method Session.from_env
method Session.aclose
class Session.Adapter
method Session.Adapter.send
class _Private
method _Private.visible_but_private`
	if got := defList(m); got != want {
		t.Fatalf("defs:\n%s\nwant:\n%s", got, want)
	}
	defs := map[string]PyDef{}
	for _, d := range m.Defs {
		defs[d.Name] = d
	}
	tests := map[string][2]string{
		"Session":          {"class Session", "A session with connection pooling.\n\nUse it as a context manager::\n\n    with Session() as s:\n        s.get(\"/\")"},
		"Session.__init__": {`def __init__(self, base_url: str = "", *, retries: int = 3) -> None`, ""},
		"Session.get":      {"def get(self, url, **kw)", "Sends a GET request relative to base_url."},
		"Session.closed":   {"@property def closed(self) -> bool", "Whether close() was called."},
		"Session.from_env": {`@classmethod def from_env(cls) -> "Session"`, "Builds a session from TINYHTTP_* variables."},
		"Session.aclose":   {"async def aclose(self)", ""},
		"Session.timeout":  {"timeout: float = 10.0", ""},
	}
	for name, want := range tests {
		if d := defs[name]; d.Signature != want[0] || d.Doc != want[1] {
			t.Errorf("%s: %q / %q\nwant %q / %q", name, d.Signature, d.Doc, want[0], want[1])
		}
	}
}

func TestScanPythonForms(t *testing.T) {
	api := ScanPython(fileMap(wheelFiles(t))["tinyhttp/api.py"])
	if got := defList(api); got != "function get\nfunction post\nfunction _request" {
		t.Fatalf("api defs: %s", got)
	}
	post := api.Defs[1]
	if post.Signature != `async def post(url: str, data: bytes = b"", *, timeout: float = 10.0) -> "Response"` {
		t.Errorf("multi-line signature = %q", post.Signature)
	}
	if post.Doc != `Sends a POST request (raw docstring: \d stays).` {
		t.Errorf("raw docstring = %q", post.Doc)
	}
	init := ScanPython(fileMap(wheelFiles(t))["tinyhttp/__init__.py"])
	if !reflect.DeepEqual(init.All, []string{"get", "post", "Session", "VERSION"}) || defList(init) != "const VERSION\nconst DEBUG" {
		t.Errorf("__init__: all %v, defs %s", init.All, defList(init))
	}
	src := `
from typing import overload

@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...
def parse(x):
    """Parses x."""

if True:
    def conditional(): "Defined in an if block."
else:
    def conditional(): "The twin."

s = """def not_a_function():
    pass"""
x = {'def': 'nope', 'class': "no"}  # def in a comment
class Broken(  # a comment inside brackets
        object):
    __slots__ = ()
    def __call__(self, *args): ...
    def __repr__(self): ...
`
	m := ScanPython([]byte(src))
	if got := defList(m); got != "function parse\nfunction conditional\nassign s\nassign x\nclass Broken\nmethod Broken.__call__" {
		t.Fatalf("defs:\n%s", got)
	}
	if p := m.Defs[0]; p.Signature != "def parse(x: int) -> int\ndef parse(x: str) -> str" || p.Doc != "Parses x." {
		t.Errorf("overloads: %q / %q", p.Signature, p.Doc)
	}
	if d := m.Defs[1].Doc; d != "Defined in an if block." {
		t.Errorf("one-line body docstring = %q", d)
	}
	if sig := m.Defs[4].Signature; sig != "class Broken(object)" {
		t.Errorf("class signature = %q", sig)
	}
}

func TestParseMetadata(t *testing.T) {
	m := ParseMetadata(fileMap(wheelFiles(t))["tinyhttp-1.4.0.dist-info/METADATA"])
	if m.Name != "tinyhttp" || m.Version != "1.4.0" || m.Summary != "HTTP for tiny humans." || m.RequiresPython != ">=3.9" ||
		len(m.ProjectURLs) != 2 || !strings.HasPrefix(m.Description, "# tinyhttp\n\nHTTP for tiny humans.") || m.DescriptionContentType != "text/markdown" {
		t.Fatalf("metadata = %+v", m)
	}
	legacy := "Metadata-Version: 1.1\nName: old\nDescription: Old style\n        |\n        |    indented code\n        |end\nHome-page: https://old.example\n"
	m = ParseMetadata([]byte(legacy))
	if m.Description != "Old style\n\n    indented code\nend" || m.HomePage != "https://old.example" {
		t.Fatalf("legacy = %+v", m)
	}
}

func TestVersionOrder(t *testing.T) {
	ordered := []string{"1.0.dev1", "1.0a1", "1.0a2.dev1", "1.0a2", "1.0b1", "1.0rc1", "1.0", "1.0.post1", "1.1", "2!0.1"}
	for i := 0; i+1 < len(ordered); i++ {
		a, ok1 := parseVersion(ordered[i])
		b, ok2 := parseVersion(ordered[i+1])
		if !ok1 || !ok2 || compareVersions(a, b) >= 0 {
			t.Errorf("%s must sort before %s", ordered[i], ordered[i+1])
		}
	}
	if !sameVersion("1.0", "1.0.0") || !sameVersion("v1.0", "1.0") || sameVersion("1.0", "1.0.1") {
		t.Error("PEP 440 equality")
	}
	if _, ok := parseVersion("not a version"); ok {
		t.Error("garbage parsed as a version")
	}
}

func FuzzPyScanner(f *testing.F) {
	for _, file := range wheelFiles(f) {
		if strings.HasSuffix(file.Name, ".py") || strings.HasSuffix(file.Name, ".pyi") {
			f.Add(string(file.Data))
		}
	}
	f.Add("def f(x=')'):\n  '''doc\n\nclass A(f'{x!r:{w}}'): pass\n@d\n")
	f.Add("class A:\n\tdef g(self, \\\n a): \"\"\"x\"\"\"\n__all__ = ['a'] + ['b']\n")
	f.Fuzz(func(t *testing.T, src string) {
		m := ScanPython([]byte(src))
		if len(m.Defs) > maxDefs {
			t.Fatalf("%d defs", len(m.Defs))
		}
	})
}

func FuzzMetadata(f *testing.F) {
	f.Add(string(fileMap(wheelFiles(f))["tinyhttp-1.4.0.dist-info/METADATA"]))
	f.Add("Name: x\nDescription: a\n        |b\n\nbody")
	f.Fuzz(func(t *testing.T, data string) {
		ParseMetadata([]byte(data))
		parseVersion(data)
	})
}

// TestClassMembersBeyondDefs: enum members and the attributes __init__
// sets are a class's members; a local variable of __init__ is not.
func TestClassMembersBeyondDefs(t *testing.T) {
	m := ScanPython([]byte(`
class Color(Enum):
    RED = 1
    GREEN: int = 2

class App:
    def __init__(self, name):
        self.name = name
        self.config: dict = {}
        local = 3
        self._private = 4
`))
	want := "class Color\nproperty Color.RED\nproperty Color.GREEN\nclass App\nmethod App.__init__\nproperty App.name\nproperty App.config"
	if got := defList(m); got != want {
		t.Fatalf("defs:\n%s\nwant:\n%s", got, want)
	}
	if sig := m.Defs[6].Signature; sig != "config: dict" {
		t.Errorf("annotated instance attribute = %q", sig)
	}
}
