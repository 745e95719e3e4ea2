package jsonschema

import (
	"embed"
	"fmt"
	"sync"
)

// The official meta-schemas are embedded, so that $schema and $ref to them
// work without a Loader and without the network. See metaschemas/README.md.
//
//go:embed metaschemas
var metaFS embed.FS

// metaFiles maps meta-schema URIs (without fragment) to embedded files.
var metaFiles = map[string]string{
	"https://json-schema.org/draft/2020-12/schema":                 "metaschemas/draft2020-12/schema.json",
	"https://json-schema.org/draft/2020-12/meta/core":              "metaschemas/draft2020-12/meta/core.json",
	"https://json-schema.org/draft/2020-12/meta/applicator":        "metaschemas/draft2020-12/meta/applicator.json",
	"https://json-schema.org/draft/2020-12/meta/unevaluated":       "metaschemas/draft2020-12/meta/unevaluated.json",
	"https://json-schema.org/draft/2020-12/meta/validation":        "metaschemas/draft2020-12/meta/validation.json",
	"https://json-schema.org/draft/2020-12/meta/meta-data":         "metaschemas/draft2020-12/meta/meta-data.json",
	"https://json-schema.org/draft/2020-12/meta/format-annotation": "metaschemas/draft2020-12/meta/format-annotation.json",
	"https://json-schema.org/draft/2020-12/meta/format-assertion":  "metaschemas/draft2020-12/meta/format-assertion.json",
	"https://json-schema.org/draft/2020-12/meta/content":           "metaschemas/draft2020-12/meta/content.json",
	"http://json-schema.org/draft-07/schema":                       "metaschemas/draft7/schema.json",
	"https://json-schema.org/draft-07/schema":                      "metaschemas/draft7/schema.json",
}

var (
	metaMu      sync.Mutex
	metaSchemas = map[string]*Schema{}
)

// metaSchema returns the embedded meta-schema with the given URI, parsed
// once per process, or nil. The result is shared and must not be modified.
func metaSchema(uri string) (*Schema, error) {
	file, ok := metaFiles[normalizeMetaURI(uri)]
	if !ok {
		return nil, nil
	}
	metaMu.Lock()
	defer metaMu.Unlock()
	if s := metaSchemas[file]; s != nil {
		return s, nil
	}
	data, err := metaFS.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: embedded meta-schema: %w", err)
	}
	s := new(Schema)
	if err := s.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("jsonschema: embedded meta-schema %s: %w", file, err)
	}
	metaSchemas[file] = s
	return s, nil
}
