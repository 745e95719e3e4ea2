package rust

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

func readFixture(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/rust/kvstore.rustdoc.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func symbolMap(syms []model.Symbol) map[string]model.Symbol {
	m := map[string]model.Symbol{}
	for _, s := range syms {
		m[s.Name] = s
	}
	return m
}

func names(syms []model.Symbol) string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Kind+" "+s.Name)
	}
	return strings.Join(out, "\n")
}

func TestReadRustdocWalksThePublicAPI(t *testing.T) {
	rd, err := ReadRustdoc(readFixture(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rd.FormatVersion != 57 || rd.CrateVersion != "0.3.1" || !strings.HasPrefix(rd.CrateDocs, "Typed key-value stores") {
		t.Fatalf("header: format %d, version %q, docs %q", rd.FormatVersion, rd.CrateVersion, rd.CrateDocs)
	}
	// Breadth first: root items (re-exports resolved to their targets)
	// before the codec module's items; private items, synthetic and
	// blanket impls left out.
	want := `mod codec
enum Error
type alias Result
trait Codec
method Codec::encode
method Codec::decode
const VERSION
struct Store
method Store::new
method Store::get
method Store::insert
trait Backend
method Backend::load
method Backend::name
function open
macro kv
struct codec::Utf8`
	if got := names(rd.Symbols); got != want {
		t.Fatalf("symbols:\n%s\nwant:\n%s", got, want)
	}
	syms := symbolMap(rd.Symbols)
	sigs := map[string]string{
		"Store":         "pub struct Store<K, V> {\n    /// Maximum number of entries, if bounded.\n    pub capacity: Option<usize>,\n    /* private fields */\n}",
		"Store::get":    "pub fn get(&self, key: &K) -> Option<&V>",
		"Store::insert": "pub fn insert(&mut self, key: K, value: V) -> Option<V>",
		"Store::new":    "pub fn new() -> Self",
		"open":          "pub fn open<P: AsRef<std::path::Path>>(path: P) -> Result<Store<String, String>>",
		"VERSION":       `pub const VERSION: &str = "0.3.1";`,
		"Result":        "pub type Result<T> = std::result::Result<T, Error>;",
		"Error":         "#[non_exhaustive]\npub enum Error {\n    /// No value under the key.\n    NotFound(String),\n    /// The backend failed.\n    Io { path: String, message: String },\n}",
		"Backend":       "pub trait Backend {\n    fn load(&self, key: &str) -> Result<Vec<u8>>;\n    fn name(&self) -> &'static str { … }\n}",
		"Backend::name": "fn name(&self) -> &'static str { … }",
		"Codec":         "pub trait Codec<T> {\n    fn encode(&self, value: &T) -> Vec<u8>;\n    fn decode(&self, bytes: &[u8]) -> crate::Result<T>;\n}",
		"codec::Utf8":   "pub struct Utf8;",
		"kv":            "macro_rules! kv {\n    ($($k:expr => $v:expr),* $(,)?) => { ... };\n}",
	}
	for name, want := range sigs {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s signature:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if d := syms["codec::Utf8"].Doc; !strings.Contains(d, "Implements: `Clone`, `Codec<String>`.") {
		t.Errorf("Utf8 doc = %q, want the implemented traits", d)
	}
	if d := syms["Store"].Doc; strings.Contains(d, "Send") || strings.Contains(d, "Into") || !strings.Contains(d, "`Debug`") {
		t.Errorf("Store doc = %q: synthetic and blanket impls must not be listed, Debug must", d)
	}
	if f := syms["Store::get"].File; f != "src/lib.rs" {
		t.Errorf("Store::get file = %q", f)
	}
}

func TestReadRustdocGzipAndLimits(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write(readFixture(t))
	gz.Close()
	rd, err := ReadRustdoc(buf.Bytes(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Symbols) != 5 || !rd.Truncated {
		t.Fatalf("got %d symbols (truncated=%v), want 5 and truncated", len(rd.Symbols), rd.Truncated)
	}
	if _, err := ReadRustdoc(buf.Bytes()[:buf.Len()/2], 0); !errors.Is(err, ErrRustdoc) {
		t.Fatalf("truncated gzip: err = %v, want ErrRustdoc", err)
	}
}

// An older layout: string ids, "decl" instead of "sig", "import" instead of
// "use", old header and mutability field names, "typedef", "constant" with
// its expression inline.
const oldFormat = `{
  "root": "0:0", "format_version": 24, "crate_version": null,
  "index": {
    "0:0": {"name": "old", "visibility": "public", "docs": "Old crate.",
      "inner": {"module": {"is_crate": true, "items": ["0:1", "0:2", "0:3", "0:4", "0:5"]}}},
    "0:1": {"name": "parse", "visibility": "public", "docs": "Parses.", "deprecation": {"since": "0.9", "note": "use parse2"},
      "inner": {"function": {"decl": {"inputs": [["s", {"borrowed_ref": {"lifetime": "'a", "mutable": false, "type": {"primitive": "str"}}}]],
        "output": {"resolved_path": {"name": "Vec", "id": "1:9", "args": {"angle_bracketed": {"args": [{"type": {"generic": "T"}}], "bindings": []}}}}, "c_variadic": false},
        "generics": {"params": [{"name": "'a", "kind": {"lifetime": {"outlives": []}}}, {"name": "T", "kind": {"type": {"bounds": [], "default": null, "synthetic": false}}}],
          "where_predicates": [{"bound_predicate": {"type": {"generic": "T"}, "bounds": [{"trait_bound": {"trait": {"name": "FromStr", "id": "1:2", "args": null}, "generic_params": [], "modifier": "none"}}], "generic_params": []}}]},
        "header": {"const_": true, "unsafe_": false, "async_": false, "abi": "Rust"}, "has_body": true}}},
    "0:2": {"name": null, "visibility": "public", "inner": {"import": {"source": "serde::Serialize", "name": "Serialize", "id": "2:3", "glob": false}}},
    "0:3": {"name": "Bytes", "visibility": "public", "inner": {"typedef": {"type": {"slice": {"primitive": "u8"}}, "generics": {"params": [], "where_predicates": []}}}},
    "0:4": {"name": "MAX", "visibility": "public", "inner": {"constant": {"type": {"primitive": "usize"}, "expr": "64", "value": "64", "is_literal": true}}},
    "0:5": {"name": "hidden", "visibility": "crate", "inner": {"function": {"decl": {"inputs": [], "output": null}, "generics": {"params": [], "where_predicates": []}, "header": {}, "has_body": true}}}
  }
}`

func TestReadRustdocOlderFormat(t *testing.T) {
	rd, err := ReadRustdoc([]byte(oldFormat), 0)
	if err != nil {
		t.Fatal(err)
	}
	syms := symbolMap(rd.Symbols)
	tests := map[string]string{
		"parse":     "pub const fn parse<'a, T>(s: &'a str) -> Vec<T> where T: FromStr",
		"Serialize": "pub use serde::Serialize;",
		"Bytes":     "pub type Bytes = [u8];",
		"MAX":       "pub const MAX: usize = 64;",
	}
	for name, want := range tests {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if _, ok := syms["hidden"]; ok || len(rd.Symbols) != 4 {
		t.Errorf("symbols: %s", names(rd.Symbols))
	}
	if !strings.HasPrefix(syms["parse"].Doc, "**Deprecated** since 0.9: use parse2") {
		t.Errorf("deprecation not reported: %q", syms["parse"].Doc)
	}
}

func TestReadRustdocRejects(t *testing.T) {
	tests := []struct {
		name, json string
		want       error
	}{
		{"too old", `{"root": 0, "format_version": 9, "index": {}}`, ErrFormatVersion},
		{"not JSON", `<html>`, ErrRustdoc},
		{"no index", `{"root": 0, "format_version": 40}`, ErrRustdoc},
		{"root missing", `{"root": 7, "format_version": 40, "index": {}}`, ErrRustdoc},
	}
	for _, tt := range tests {
		if _, err := ReadRustdoc([]byte(tt.json), 0); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestStripHiddenLines(t *testing.T) {
	in := "Intro.\n\n```\n# use kv::Store;\nlet s = 1;\n#[derive(Debug)]\nstruct A;\n```\n\n```sh\n# a shell comment\n```\n"
	want := "Intro.\n\n```\nlet s = 1;\n#[derive(Debug)]\nstruct A;\n```\n\n```sh\n# a shell comment\n```\n"
	if got := StripHiddenLines(in); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func FuzzRustdoc(f *testing.F) {
	f.Add(readFixture(f))
	f.Add([]byte(oldFormat))
	f.Add([]byte(`{"root": 0, "format_version": 50, "index": {"0": {"visibility": "public", "inner": {"module": {"items": [0, 1]}}}, "1": {"name": "x", "visibility": "public", "inner": {"use": {"id": 0, "is_glob": true}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := ReadRustdoc(data, 100)
		if err == nil && len(rd.Symbols) > 100 {
			t.Fatalf("symbol limit ignored: %d", len(rd.Symbols))
		}
	})
}
