package servercard

import (
	"errors"
	"testing"

	"github.com/gomcp/sdk/internal/strictjson"
)

// FuzzParseCard checks that any input gives a card or an error wrapping
// ErrInvalid, never a panic, and that a card read re-encodes to a card
// that reads again (the decoder and the schema agree).
func FuzzParseCard(f *testing.F) {
	for _, s := range []string{
		card(""),
		card(`"remotes":[{"type":"streamable-http","url":"{base}/mcp","variables":{"base":{}},"headers":[{"name":"A","isSecret":true,"value":"Bearer {t}"}]}]`),
		card(`"icons":[{"src":"data:image/png;base64,AA","theme":"dark"}],"_meta":{"a/b":[1,{"c":null}]}`),
		card(`"version":"^1"`),
		`{"name":1}`, `[]`, `null`, `{"$schema":"x","$schema":"y"}`, "\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _, err := ParseCard(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		again, err := strictjson.Marshal(c)
		if err != nil {
			t.Fatalf("a card read does not encode: %v", err)
		}
		if _, _, err := ParseCard(again); err != nil {
			t.Fatalf("a card read re-encodes to an invalid one: %v\n%s\n%s", err, data, again)
		}
	})
}

// FuzzParseCatalog checks that any input gives a catalog or an error
// wrapping ErrInvalid, never a panic.
func FuzzParseCatalog(f *testing.F) {
	for _, s := range []string{
		`{"specVersion":"1.0","entries":[]}`,
		`{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","type":"application/mcp-server-card+json","url":"https://e.com/c"}]}`,
		`{"specVersion":"1.0","entries":[{"identifier":"urn:air:e.com:mcp:w","type":"application/mcp-server-card+json","data":` + card("") + `}]}`,
		`{"specVersion":"1.0","entries":[{"mediaType":"x"}]}`, `{"entries":null}`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _, err := ParseCatalog(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if c == nil {
			t.Fatal("no catalog and no error")
		}
	})
}
