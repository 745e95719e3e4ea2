package render

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// The index answers exactly as the scans it replaces, for every kind of
// lookup: exact, case-insensitive, member name, qualified suffix, unknown.
func TestSymbolIndexAgreesWithScan(t *testing.T) {
	p := &model.Package{Ecosystem: model.NPM, Symbols: []model.Symbol{
		{Name: "Command", Kind: "class", Signature: "class Command"},
		{Name: "Command.option", Kind: "method", Signature: "option(flags: string): this"},
		{Name: "Command.option", Kind: "method", Signature: "option(flags: string, description?: string): this"},
		{Name: "Command.opts", Kind: "method", Signature: "opts(): OptionValues"},
		{Name: "command", Kind: "function", Signature: "function command(): Command"},
		{Name: "moment.Moment", Kind: "interface", Signature: "interface Moment"},
		{Name: "moment.Moment.format", Kind: "method", Signature: "format(f?: string): string"},
		{Name: "Store::get", Kind: "method", Signature: "pub fn get(&self) -> u8"},
		{Name: "Store", Kind: "struct", Signature: "pub struct Store;"},
		{Name: "net::TcpListener::bind", Kind: "method", Signature: "pub async fn bind(addr: A) -> io::Result<TcpListener>"},
		{Name: "Ünïcode.İx", Kind: "method", Signature: "İx()"},
		{Name: "readFile", Kind: "function", Signature: "function readFile(path: string): Buffer"},
		{Name: "promises.readFile", Kind: "function", Signature: "function readFile(path: string): Promise<Buffer>"},
		{Name: "express.Application.use", Kind: "property", Signature: "use: ApplicationRequestHandler<this>", Aliases: []string{"app.use"}},
	}}
	x := NewSymbolIndex(p)
	for _, name := range []string{"Command", "command", "COMMAND", "option", "Command.option", "opts", "Moment.format",
		"format", "Store", "get", "readFile", "readfile", "promises.readFile", "Nope", "a.Nope", " readFile ", "", "ix", "Ünïcode",
		"app.use", "APP.use", "use", "Application.use", "TcpListener::bind", "tcplistener::bind", "Listener::bind", "::bind"} {
		want, got := FindSymbols(p.Symbols, name), x.Find(name)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Find(%q) = %v, want %v (as the scan)", name, got, want)
		}
		if wb, gb := SymbolBlocks(p, name), x.Blocks(name); !reflect.DeepEqual(gb, wb) {
			t.Errorf("Blocks(%q) = %+v, want %+v", name, gb, wb)
		}
	}
}

// A symbol is found by its aliases, the names its JavaScript source gives
// it, as by its own name.
func TestSymbolIndexAliases(t *testing.T) {
	p := &model.Package{Ecosystem: model.NPM, Symbols: []model.Symbol{
		{Name: "express.Application.use", Kind: "property", Signature: "use: ApplicationRequestHandler<this>", Aliases: []string{"app.use"}},
		{Name: "express.Router.use", Kind: "property", Signature: "use: RouterHandler<this>"},
	}}
	x := NewSymbolIndex(p)
	for _, name := range []string{"app.use", "App.Use"} {
		if got := x.Find(name); len(got) != 1 || got[0].Name != "express.Application.use" {
			t.Errorf("Find(%q) = %v, want express.Application.use alone", name, got)
		}
	}
}

// BenchmarkSymbolLookup compares a symbol answer over 10,000 symbols with
// the index and with a scan.
func BenchmarkSymbolLookup(b *testing.B) {
	p := &model.Package{Ecosystem: model.NPM}
	for i := range 10000 {
		p.Symbols = append(p.Symbols, model.Symbol{Name: fmt.Sprintf("ns%d.fn%d", i%50, i), Kind: "function", Signature: "function f(): void"})
	}
	p.Symbols = append(p.Symbols, model.Symbol{Name: "readFile", Kind: "function", Signature: "function readFile(): void"})
	x := NewSymbolIndex(p)
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if x.Blocks("readFile") == nil {
				b.Fatal("not found")
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if SymbolBlocks(p, "readFile") == nil {
				b.Fatal("not found")
			}
		}
	})
}

// A qualified name is found by its last components after a '::' as after
// a '.', never by a part of a component.
func TestFindQualifiedSuffix(t *testing.T) {
	p := &model.Package{Symbols: []model.Symbol{{Name: "net::TcpListener::bind", Kind: "method"}, {Name: "moment.Moment.format", Kind: "method"}}}
	x := NewSymbolIndex(p)
	for name, want := range map[string]int{"TcpListener::bind": 1, "net::TcpListener::bind": 1, "Listener::bind": 0, "Moment.format": 1, "oment.format": 0} {
		if got := len(x.Find(name)); got != want {
			t.Errorf("Find(%q): %d symbols, want %d", name, got, want)
		}
	}
}
