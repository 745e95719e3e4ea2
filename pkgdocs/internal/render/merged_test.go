package render

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

func TestMergedDeclarationsAnswer(t *testing.T) {
	p := &model.Package{Name: "lru", Ecosystem: model.NPM, Symbols: []model.Symbol{
		{Name: "LRU", Kind: "namespace", Signature: "namespace LRU { … }"},
		{Name: "LRU", Kind: "class", Signature: "class LRU<K, V> {\n    constructor(options: Options<K, V>);\n    // …\n}"},
		{Name: "LRU.constructor", Kind: "method", Signature: "constructor(options: Options<K, V>)"},
		{Name: "LRU.get", Kind: "method", Signature: "get(k: K): V | undefined"},
	}}
	var text []string
	for _, b := range SymbolBlocks(p, "LRU") {
		text = append(text, b.Text)
	}
	all := strings.Join(text, "\n")
	tests := []struct {
		what string
		ok   bool
	}{
		{"the class comes before the namespace merged with it", strings.Index(all, "## class LRU") < strings.Index(all, "## namespace LRU")},
		{"members are listed once", strings.Count(all, "get(k: K)") == 1},
		{"the constructor shown in the signature is not listed again", strings.Count(all, "constructor(options") == 1},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s:\n%s", tt.what, all)
		}
	}
}
