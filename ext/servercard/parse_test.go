package servercard

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/jsonschema"
)

const schemaMember = `"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"`

// card returns the JSON text of a card with extra members and the
// required ones that extra does not give.
func card(extra string) string {
	var given map[string]json.RawMessage // encoding/json: duplicates pass
	if err := json.Unmarshal([]byte("{"+extra+"}"), &given); err != nil {
		panic(err)
	}
	members := []string{schemaMember, `"name":"com.example/weather"`, `"version":"1.0.0"`, `"description":"Forecasts"`}
	for _, m := range members {
		name, _, _ := strings.Cut(m, ":")
		if _, ok := given[strings.Trim(name, `"`)]; ok {
			continue
		}
		if extra != "" {
			extra += ","
		}
		extra += m
	}
	return "{" + extra + "}"
}

// ParseCard accepts valid cards: the extension's minimal and templated
// examples, and every optional member.
func TestParseCardValid(t *testing.T) {
	tests := []struct {
		name, json string
	}{
		{"minimal", `{` + schemaMember + `,"name":"example-org/minimal","version":"1.0.0","description":"Smallest valid Server Card."}`},
		{"templated remote", card(`"remotes":[{"type":"streamable-http","url":"{base_url}/mcp","variables":{"base_url":{"description":"Your tenant","isRequired":true,"placeholder":"https://acme.example.com"}}}]`)},
		{"every member", card(`"title":"Weather","websiteUrl":"https://example.com","repository":{"url":"https://github.com/e/w","source":"github","subfolder":"srv","id":"42"},` +
			`"icons":[{"src":"data:image/png;base64,AAAA","mimeType":"image/png","sizes":["48x48","any"],"theme":"dark"}],` +
			`"remotes":[{"type":"sse","url":"https://e.com/sse","supportedProtocolVersions":["2024-11-05"],"headers":[{"name":"X-Region","choices":["eu","us"],"default":"eu","format":"string"}]}],` +
			`"_meta":{"com.example/install":{"hint":"x"}}`)},
		{"a secret described, not filled", card(`"remotes":[{"type":"streamable-http","url":"https://e.com/mcp","headers":[{"name":"Authorization","isSecret":true,"value":"Bearer {token}","variables":{"token":{"isSecret":true}}}]}]`)},
		{"unknown members (objects are open)", card(`"x-later":1,"remotes":[{"type":"sse","url":"https://e.com/sse","later":true}]`)},
		{"pre-release version", card(`"version":"2.1.0-alpha.1"`)},
		{"version with a v", card(`"version":"v1.0.0"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warnings, err := ParseCard([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if c.Schema != SchemaURL || c.Name == "" || len(warnings) != 0 {
				t.Fatalf("card %+v, warnings %q", c, warnings)
			}
		})
	}
}

// ParseCard refuses what the schema refuses (the reference's negative
// examples among them) and cards that publish a secret, with an error
// wrapping ErrInvalid that names the problem.
func TestParseCardInvalid(t *testing.T) {
	long := strings.Repeat("x", 101)
	tests := []struct {
		name, json, says string
	}{
		{"empty", ``, "empty"},
		{"not an object", `[]`, "not a JSON object"},
		{"null", `null`, "null"},
		{"duplicate member", card(`"name":"com.example/a","name":"com.example/b"`), "duplicate"},
		{"missing $schema", `{"name":"com.example/w","version":"1","description":"d"}`, "$schema"},
		{"missing name", `{` + schemaMember + `,"version":"1","description":"d"}`, "name"},
		{"missing version", `{` + schemaMember + `,"name":"com.example/w","description":"d"}`, "version"},
		{"missing description", `{` + schemaMember + `,"name":"com.example/w","version":"1"}`, "description"},
		{"date-versioned $schema", card(`"$schema":"https://static.modelcontextprotocol.io/schemas/2025-09-29/server-card.schema.json"`), "$schema"},
		{"server.schema.json", card(`"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server.schema.json"`), "$schema"},
		{"January 2026 $schema", card(`"$schema":"https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json"`), "$schema"},
		{"packages member", card(`"packages":[{"registryType":"npm","identifier":"w"}]`), "packages"},
		{"name without slash", card(`"name":"weather"`), "name"},
		{"name with two slashes", card(`"name":"com.example/a/b"`), "name"},
		{"name too short", card(`"name":"a/"`), "name"},
		{"name too long", card(`"name":"com.example/` + strings.Repeat("n", 200) + `"`), "name"},
		{"name with a space", card(`"name":"com.example/my server"`), "name"},
		{"version ^", card(`"version":"^1.2.3"`), "version"},
		{"version ~", card(`"version":"~1.2.3"`), "version"},
		{"version >=", card(`"version":">=1.2.3"`), "version"},
		{"version 1.x", card(`"version":"1.x"`), "version"},
		{"version 1.*", card(`"version":"1.*"`), "version"},
		{"version too long", card(`"version":"` + strings.Repeat("1", 256) + `"`), "version"},
		{"description empty", card(`"description":""`), "description"},
		{"description of 101 characters", card(`"description":"` + long + `"`), "description"},
		{"title of 101 characters", card(`"title":"` + long + `"`), "title"},
		{"remote type stdio", card(`"remotes":[{"type":"stdio","url":"https://e.com/mcp"}]`), "type"},
		{"remote without url", card(`"remotes":[{"type":"sse"}]`), "url"},
		{"remote url relative", card(`"remotes":[{"type":"sse","url":"/mcp"}]`), "url"},
		{"remote url ftp", card(`"remotes":[{"type":"sse","url":"ftp://e.com/mcp"}]`), "url"},
		{"input format", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"name":"X","format":"date"}]}]`), "format"},
		{"header without name", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"value":"1"}]}]`), "name"},
		{"repository without source", card(`"repository":{"url":"https://github.com/e/w"}`), "source"},
		{"icon src javascript", card(`"icons":[{"src":"javascript:alert(1)"}]`), "src"},
		{"icon theme", card(`"icons":[{"src":"https://e.com/i.png","theme":"blue"}]`), "theme"},
		{"websiteUrl not a URI", card(`"websiteUrl":"not a uri"`), "websiteUrl"},
		{"secret header filled", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"name":"X-Token","isSecret":true,"value":"abc123"}]}]`), "secret"},
		{"secret default", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"name":"X-Token","isSecret":true,"default":"abc123"}]}]`), "secret"},
		{"secret variable filled", card(`"remotes":[{"type":"sse","url":"https://e.com/{key}","variables":{"key":{"isSecret":true,"value":"abc"}}}]`), "secret"},
		{"secret header variable filled", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"name":"Authorization","value":"Bearer {t}","variables":{"t":{"isSecret":true,"default":"abc"}}}]}]`), "secret"},
		{"authorization with a literal value", card(`"remotes":[{"type":"sse","url":"https://e.com","headers":[{"name":"Authorization","value":"Bearer abc123"}]}]`), "credential"},
		{"credentials in a remote url", card(`"remotes":[{"type":"sse","url":"https://user:pw@e.com/sse"}]`), "credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseCard([]byte(tt.json))
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.says)
			}
		})
	}
}

// A schema failure carries the validator's details.
func TestParseCardSchemaDetails(t *testing.T) {
	_, _, err := ParseCard([]byte(card(`"version":"^1","description":""`)))
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) || len(verr.Details) < 2 {
		t.Fatalf("err = %v, want a *jsonschema.ValidationError with both failures", err)
	}
}

// Members of superseded card shapes and plain-http remotes are warnings:
// the card is still read.
func TestParseCardWarnings(t *testing.T) {
	tests := []struct {
		name, json, warns string
	}{
		{"tools", card(`"tools":[{"name":"t"}]`), `"tools"`},
		{"capabilities", card(`"capabilities":{"tools":{}}`), `"capabilities"`},
		{"prompts", card(`"prompts":[]`), `"prompts"`},
		{"resources", card(`"resources":[]`), `"resources"`},
		{"plain http remote", card(`"remotes":[{"type":"sse","url":"http://mcp.example.com/sse"}]`), "plain http"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warnings, err := ParseCard([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if c == nil || len(warnings) != 1 || !strings.Contains(warnings[0], tt.warns) {
				t.Fatalf("warnings %q, want one mentioning %s", warnings, tt.warns)
			}
		})
	}
	if _, w, err := ParseCard([]byte(card(`"remotes":[{"type":"sse","url":"http://localhost:8080/sse"}]`))); err != nil || len(w) != 0 {
		t.Fatalf("http to localhost: warnings %q, err %v; want none", w, err)
	}
}

// The embedded schema requires what a card requires, and leaves objects
// open as the extension's schema does.
func TestCardSchema(t *testing.T) {
	s := CardSchema()
	if s == nil {
		t.Fatal("the embedded card schema does not compile")
	}
	if !slices.Equal(s.Required, []string{"$schema", "name", "version", "description"}) {
		t.Errorf("required %v", s.Required)
	}
	if s.AdditionalProperties != nil {
		t.Errorf("additionalProperties is set: cards are open objects")
	}
	s.Required = nil
	if again := CardSchema(); len(again.Required) != 4 {
		t.Error("CardSchema returned the package's own schema, not a copy")
	}
}
