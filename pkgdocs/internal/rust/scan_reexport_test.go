package rust

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// reexportCrate is laid out as tokio, anyhow and clap are: macros exported
// from private and #[doc(hidden)] modules, items wrapped in cfg_*!
// macro calls, re-exports through private modules, crate:: paths from a
// submodule, and an impl written in another module than its type.
var reexportCrate = map[string][]byte{
	"src/lib.rs": []byte(`//! The crate.
#[macro_use]
mod macros;
#[doc(hidden)]
pub mod support;
pub mod net;
pub mod task;
cfg_rt! {
    pub use task::spawn;
}
pub use crate::net::TcpListener as Listener;
mod builder;
pub use builder::Command;
mod command_ext;
mod util;
pub use util::{helper as assist, Kept};
pub use crate::ser::Serializer;
#[cfg(feature = "std")]
pub mod ser;
#[cfg(not(feature = "std"))]
mod ser;
`),
	"src/ser.rs": []byte("pub struct Serializer;\nimpl Serializer { pub fn pretty() -> Self { Serializer } }\n"),
	"src/macros.rs": []byte(`/// Builds an error.
#[macro_export]
macro_rules! oops { ($msg:literal) => { () }; }
#[macro_export(local_inner_macros)]
macro_rules! json { ($($t:tt)+) => { () }; }
macro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }
#[doc(hidden)]
#[macro_export]
macro_rules! __private { () => {} }
`),
	"src/support.rs": []byte(`/// Waits on branches.
#[macro_export]
macro_rules! select { () => {} }
`),
	"src/net/mod.rs": []byte(`mod tcp;
cfg_net! {
    pub use tcp::listener::TcpListener;
}
`),
	"src/net/tcp/mod.rs": []byte(`pub(crate) mod listener;
`),
	"src/net/tcp/listener.rs": []byte(`/// A TCP socket server.
pub struct TcpListener { inner: u8 }
impl TcpListener {
    cfg_not_wasi! {
        /// Creates a listener bound to addr.
        pub async fn bind(addr: &str) -> std::io::Result<TcpListener> { todo!() }
    }
    pub fn ttl(&self) -> u32 { 0 }
}
`),
	"src/task/mod.rs": []byte(`mod spawn;
pub use spawn::spawn;
pub use crate::runtime_task::JoinHandle;
`),
	"src/task/spawn.rs": []byte(`/// Spawns a task.
pub fn spawn<T>(future: T) -> JoinHandle<T> { todo!() }
`),
	"src/builder.rs": []byte(`/// Builds a command line.
pub struct Command;
impl Command {
    pub fn new() -> Self { Command }
}
`),
	"src/command_ext.rs": []byte(`use crate::builder::Command;
impl Command {
    /// Adds an argument.
    pub fn arg(self, a: &str) -> Self { self }
    fn private(&self) {}
}
`),
	"src/util.rs": []byte(`pub fn helper() {}
pub struct Kept;
pub struct Dropped;
`),
}

func TestScanReexportsAndMacros(t *testing.T) {
	files := map[string][]byte{"src/runtime_task.rs": []byte("/// An owned task.\npub struct JoinHandle<T>(T);\nimpl<T> JoinHandle<T> { pub fn abort(&self) {} }\n")}
	for n, d := range reexportCrate {
		files[n] = d
	}
	files["src/lib.rs"] = append(files["src/lib.rs"], "mod runtime_task;\n"...)
	res := (&Scanner{Read: reader(files)}).Scan("src/lib.rs")
	syms := symbolMap(res.Symbols)
	tests := []struct {
		name, kind, sig string
		aliases         []string
	}{
		{"oops", "macro", "macro_rules! oops {\n    ($msg:literal) => { … };\n}", nil},                // a private module's exported macro
		{"json", "macro", "macro_rules! json {\n    ($($t:tt)+) => { … };\n}", nil},                   // macro_export(local_inner_macros)
		{"select", "macro", "macro_rules! select {\n    () => { … };\n}", nil},                        // a doc(hidden) module's exported macro
		{"task::spawn", "function", "pub fn spawn<T>(future: T) -> JoinHandle<T>", []string{"spawn"}}, // cfg_rt! { pub use task::spawn; }
		{"net::TcpListener", "struct", "pub struct TcpListener {\n    /* private fields */\n}", []string{"Listener"}},
		{"net::TcpListener::bind", "method", "pub async fn bind(addr: &str) -> std::io::Result<TcpListener>", nil}, // inside cfg_not_wasi! in the impl
		{"net::TcpListener::ttl", "method", "pub fn ttl(&self) -> u32", nil},
		{"task::JoinHandle", "struct", "pub struct JoinHandle<T>(T);", nil}, // crate:: path from a submodule, through a private module
		{"task::JoinHandle::abort", "method", "pub fn abort(&self)", nil},
		{"Command", "struct", "pub struct Command;", nil},
		{"Command::new", "method", "pub fn new() -> Self", nil},
		{"Command::arg", "method", "pub fn arg(self, a: &str) -> Self", nil}, // an impl in another private module
		{"assist", "function", "pub fn helper()", nil},                       // pub use util::{helper as assist}
		{"Kept", "struct", "pub struct Kept;", nil},
		{"ser::Serializer", "struct", "pub struct Serializer;", []string{"Serializer"}}, // a module public in one cfg variant is public
	}
	for _, tt := range tests {
		s, ok := syms[tt.name]
		if !ok {
			t.Errorf("%s is missing", tt.name)
			continue
		}
		if s.Kind != tt.kind || s.Signature != tt.sig || !reflect.DeepEqual(s.Aliases, tt.aliases) {
			t.Errorf("%s: %s %q aliases %q, want %s %q aliases %q", tt.name, s.Kind, s.Signature, s.Aliases, tt.kind, tt.sig, tt.aliases)
		}
	}
	for _, absent := range []string{"__private", "cfg_rt", "Dropped", "Command::private", "spawn", "Listener", "net::tcp::listener::TcpListener", "command_ext::Command::arg", "Serializer", "Serializer::pretty"} {
		if _, ok := syms[absent]; ok {
			t.Errorf("%s must not be listed", absent)
		}
	}
	for _, s := range res.Symbols {
		if s.Kind == "use" {
			t.Errorf("re-export %s %q left unresolved", s.Name, s.Signature)
		}
	}
}

func TestExpandUse(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"a::B", []string{"a::B"}},
		{"a::{B, c::D as E, f::*}", []string{"a::B", "a::c::D as E", "a::f::*"}},
		{"crate::x::{self, y::{Z, W}}", []string{"crate::x", "crate::x::y::Z", "crate::x::y::W"}},
		{"a::{B,}", []string{"a::B"}},
		{"a::B as _", nil},
		{"{a, b}", []string{"a", "b"}},
	}
	for _, tt := range tests {
		var leaves []useLeaf
		expandUse(tt.text, nil, &leaves, 0)
		var got []string
		for _, l := range leaves {
			s := strings.Join(l.path, "::")
			if l.glob {
				s += "::*"
			}
			if l.rename != "" {
				s += " as " + l.rename
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("expandUse(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func FuzzExpandUse(f *testing.F) {
	for _, s := range []string{"a::{B, c::D as E, f::*}", "crate::x::{self, y::{Z, W}}", "{{{", "a::}}{{::b", "x as"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var leaves []useLeaf
		expandUse(text, nil, &leaves, 0)
		if len(leaves) > 257 {
			t.Fatalf("%d leaves", len(leaves))
		}
		for _, l := range leaves {
			if len(l.path) == 0 {
				t.Fatalf("an empty path from %q", text)
			}
		}
	})
}

// A facade's re-exports from other crates are listed from those crates'
// APIs (Scanner.Extern): a glob of a proc-macro crate's derive macros, a
// trait with its methods, a renamed item; a derive macro and a trait of the
// same name are both listed, as Rust keeps them in different namespaces.
func TestScanExternCrates(t *testing.T) {
	impl := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(`
/// Derives Error.
#[proc_macro_derive(Error, attributes(error, source))]
pub fn derive_error(input: TokenStream) -> TokenStream { input }
#[proc_macro_attribute]
pub fn main(args: TokenStream, item: TokenStream) -> TokenStream { item }
#[proc_macro_derive(Hidden)]
fn not_public(input: TokenStream) -> TokenStream { input }
`)})}).Scan("src/lib.rs").Symbols
	core := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(`
pub trait RngCore { fn next_u32(&mut self) -> u32; }
pub struct Unused;
`)})}).Scan("src/lib.rs").Symbols
	crates := map[string][]model.Symbol{"facade_impl": impl, "rand_core": core}
	lib := `pub use facade_impl::*;
pub use rand_core::{RngCore, Unused as Renamed};
pub trait Error {}
pub use missing_crate::Thing;
`
	res := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(lib)}), Extern: func(c string) []model.Symbol { return crates[c] }}).Scan("src/lib.rs")
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Kind+" "+s.Name)
	}
	want := []string{"trait Error", "use Thing", "struct Renamed", "derive macro Error", "attribute macro main", "trait RngCore", "method RngCore::next_u32"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("symbols %q, want %q", got, want)
	}
	if sig := symbolMap(res.Symbols)["RngCore::next_u32"].Signature; sig != "fn next_u32(&mut self) -> u32;" {
		t.Errorf("RngCore::next_u32: %q", sig)
	}
}

// Items inside cfg_if! branches, all of them, as cfg is not evaluated;
// an item in several branches is listed once.
func TestScanCfgIf(t *testing.T) {
	src := `cfg_if::cfg_if! {
    if #[cfg(unix)] {
        mod unix;
        pub use unix::Poller;
    } else if #[cfg(windows)] {
        /// The Windows poller.
        pub struct Poller;
    } else {
        compile_error!("unsupported");
    }
}
cfg_if! { if #[cfg(feature = "std")] { pub fn with_std() {} } }
`
	res := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(src), "src/unix.rs": []byte("/// The Unix poller.\npub struct Poller { fd: i32 }\n")})}).Scan("src/lib.rs")
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Kind+" "+s.Name+": "+s.Doc)
	}
	want := []string{"struct Poller: The Unix poller.", "function with_std: "} // cfg variants of an item: the first
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("symbols %q, want %q", got, want)
	}
}

// Item-position calls of the crate's own macro_rules! macros are expanded
// when an arm fits: a list of $name:fragment parameters (regex's
// define_builder!), or the only arm with its repetitions left out (serde's
// declare_error_trait!).
func TestScanMacroExpansion(t *testing.T) {
	src := `macro_rules! define_builder {
    ($name:ident, $only_utf8:expr) => {
        pub mod $name {
            /// A configurable builder.
            pub struct RegexBuilder(bool);
            impl RegexBuilder {
                pub fn new() -> RegexBuilder { RegexBuilder($only_utf8) }
            }
        }
    };
}
define_builder!(bytes, false);
define_builder!(unicode, true);
pub use unicode::*;

macro_rules! declare_error_trait {
    (Error: Sized $(+ $($supertrait:ident)::+)*) => {
        /// The Error trait.
        pub trait Error: Sized $(+ $($supertrait)::+)* {
            fn custom<T>(msg: T) -> Self;
        }
    }
}
declare_error_trait!(Error: Sized + StdError);
declare_error_trait!(Error: Sized);

macro_rules! two_arms { ($a:ident) => { pub struct $a; }; ($a:ident, $b:ident) => { pub struct $b; }; }
two_arms!(First);
two_arms!(Unused, Second);
macro_rules! unbound { () => { pub struct $missing; } }
unbound!();
`
	res := (&Scanner{Read: reader(map[string][]byte{"src/lib.rs": []byte(src)})}).Scan("src/lib.rs")
	syms := symbolMap(res.Symbols)
	tests := map[string]string{
		"bytes::RegexBuilder": "pub struct RegexBuilder(bool);",
		"RegexBuilder":        "pub struct RegexBuilder(bool);",
		"RegexBuilder::new":   "pub fn new() -> RegexBuilder",
		"Error":               "pub trait Error: Sized { … }",
		"Error::custom":       "fn custom<T>(msg: T) -> Self;",
		"First":               "pub struct First;",
		"Second":              "pub struct Second;",
	}
	for name, want := range tests {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if d := syms["Error"].Doc; d != "The Error trait." {
		t.Errorf("Error doc %q", d)
	}
	for _, absent := range []string{"Unused", "missing"} {
		if _, ok := syms[absent]; ok {
			t.Errorf("%s must not be listed", absent)
		}
	}
}
