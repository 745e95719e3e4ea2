package rust

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func crateFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	for _, f := range testutil.TxtarFile(t, "../../testdata/rust/kvstore.txtar") {
		files[f.Name] = f.Data
	}
	return files
}

func reader(files map[string][]byte) func(string) ([]byte, bool) {
	return func(n string) ([]byte, bool) { b, ok := files[n]; return b, ok }
}

func TestScanCrateSource(t *testing.T) {
	res := (&Scanner{Read: reader(crateFiles(t))}).Scan("src/lib.rs")
	if !strings.HasPrefix(res.CrateDocs, "Typed key-value stores with pluggable codecs.\n\n# Examples") {
		t.Errorf("crate docs = %q", res.CrateDocs)
	}
	// Source order. Re-exports of the private error module are scanned in
	// place; the re-export from the public codec module becomes a name of
	// codec::Codec; the private method and the cfg(test) module are not
	// listed; the methods Utf8 has from its Codec impl are, hidden.
	want := `mod codec
trait codec::Codec
method codec::Codec::encode
method codec::Codec::decode
struct codec::Utf8
enum Error
type alias Result
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
trait method codec::Utf8::encode
trait method codec::Utf8::decode`
	if got := names(res.Symbols); got != want {
		t.Fatalf("symbols:\n%s\nwant:\n%s", got, want)
	}
	syms := symbolMap(res.Symbols)
	sigs := map[string]string{
		"Store":         "pub struct Store<K, V> {\n    pub capacity: Option<usize>,\n    /* private fields */\n}",
		"Store::get":    "pub fn get(&self, key: &K) -> Option<&V>",
		"open":          "pub fn open<P: AsRef<std::path::Path>>(path: P) -> Result<Store<String, String>>",
		"VERSION":       `pub const VERSION: &str = "0.3.1";`,
		"Error":         "pub enum Error {\n    NotFound(String),\n    Io { path: String, message: String },\n}",
		"Backend::name": "fn name(&self) -> &'static str { … }",
		"Backend::load": "fn load(&self, key: &str) -> Result<Vec<u8>>;",
		"codec::Utf8":   "pub struct Utf8;",
		"kv":            "macro_rules! kv {\n    ($($k:expr => $v:expr),* $(,)?) => { … };\n}",
	}
	for name, want := range sigs {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s signature:\n%q\nwant:\n%q", name, got, want)
		}
	}
	if d := syms["Store"].Doc; d != "An in-memory store mapping keys to values.\n\nCreate one with [`Store::new`].\n\n*Traits implemented in this crate: Debug, Clone, Default.*" {
		t.Errorf("Store doc = %q", d)
	}
	if d := syms["codec"].Doc; d != "Encoding values to bytes." {
		t.Errorf("module docs = %q", d)
	}
	if m := syms["codec::Utf8::encode"]; !m.Hidden || !strings.Contains(m.Doc, "From the trait codec::Codec (impl Codec for Utf8)") {
		t.Errorf("codec::Utf8::encode: hidden %v, doc %q", m.Hidden, m.Doc)
	}
	if a := syms["codec::Codec"].Aliases; len(a) != 1 || a[0] != "Codec" {
		t.Errorf("codec::Codec aliases = %q, want the re-exported name Codec", a)
	}
	if d := syms["Error"].Doc; !strings.HasSuffix(d, "\n\n*Traits implemented in this crate: Debug, Display.*") { // derived, then written
		t.Errorf("Error doc = %q", d)
	}
	if f := syms["Error"].File; f != "src/error.rs" {
		t.Errorf("Error file = %q", f)
	}
}

func TestScanEdgeCases(t *testing.T) {
	src := `
/// A raw string with braces.
pub const RAW: &str = r#"}{"#;
/// Lifetimes and chars.
pub fn pick<'a>(a: &'a str, _c: char) -> &'a str { let _ = '{'; a }
pub(crate) fn internal() {}
#[doc(hidden)]
pub fn hidden() {}
pub struct Map<K, V = std::collections::HashMap<K, u8>> {
    pub inner: std::collections::HashMap<K, V>,
    pub f: fn(u8) -> u8,
}
pub use self::inner::*;
mod inner {
    pub fn deep() {}
}
pub mod nested {
    /// Inline module item.
    pub struct Inline;
}
impl<T: Fn() -> u8> Wrapper<T> {
    pub async unsafe fn call(&self) {}
}
extern "C" { fn c_fn(); }
/* block /* nested */ comment */
pub static mut COUNTER: u32 = 0;
pub fn multi(
    a: u8,
    b: (u8,),
) -> [u8; 2] { [a, b.0] }
`
	res := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(src)})}).Scan("src/lib.rs")
	syms := symbolMap(res.Symbols)
	tests := map[string]string{
		"RAW":            `pub const RAW: &str = r#"}{"#;`,
		"pick":           "pub fn pick<'a>(a: &'a str, _c: char) -> &'a str",
		"Map":            "pub struct Map<K, V = std::collections::HashMap<K, u8>> {\n    pub inner: std::collections::HashMap<K, V>,\n    pub f: fn(u8) -> u8,\n}",
		"deep":           "pub fn deep()", // through the glob re-export of a private module
		"nested::Inline": "pub struct Inline;",
		"Wrapper::call":  "pub async unsafe fn call(&self)",
		"COUNTER":        "pub static mut COUNTER: u32 = 0;",
		"multi":          "pub fn multi(a: u8, b: (u8,)) -> [u8; 2]", // one line, as rustdoc shows it
	}
	for name, want := range tests {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	for _, absent := range []string{"internal", "hidden", "c_fn", "inner::*", "inner"} {
		if _, ok := syms[absent]; ok {
			t.Errorf("%s must not be listed", absent)
		}
	}
}

func FuzzRustScanner(f *testing.F) {
	for _, data := range crateFiles(f) {
		f.Add(string(data))
	}
	f.Add("pub fn f<'a>(x: &'a str) -> char { 'x' } r#\"unterminated")
	f.Add("/* /* */ pub mod m; pub use m::{A, B}; macro_rules! m { () => {} }")
	f.Fuzz(func(t *testing.T, src string) {
		files := map[string][]byte{"src/lib.rs": []byte(src), "src/m.rs": []byte(src)}
		res := (&Scanner{Read: reader(files), MaxSymbols: 200, MaxFiles: 10}).Scan("src/lib.rs")
		if len(res.Symbols) > 200 {
			t.Fatalf("symbol cap ignored: %d", len(res.Symbols))
		}
	})
}
