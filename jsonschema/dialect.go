package jsonschema

import (
	"fmt"
	"strings"
)

// vocabSet is a set of JSON Schema vocabularies.
type vocabSet uint16

const (
	vocabCore vocabSet = 1 << iota
	vocabApplicator
	vocabUnevaluated
	vocabValidation
	vocabMetaData
	vocabFormatAnnotation
	vocabFormatAssertion
	vocabContent

	vocabAll = vocabCore | vocabApplicator | vocabUnevaluated | vocabValidation |
		vocabMetaData | vocabFormatAnnotation | vocabContent
)

// knownVocabs maps vocabulary URIs to the vocabularies this package
// implements.
var knownVocabs = map[string]vocabSet{
	"https://json-schema.org/draft/2020-12/vocab/core":              vocabCore,
	"https://json-schema.org/draft/2020-12/vocab/applicator":        vocabApplicator,
	"https://json-schema.org/draft/2020-12/vocab/unevaluated":       vocabUnevaluated,
	"https://json-schema.org/draft/2020-12/vocab/validation":        vocabValidation,
	"https://json-schema.org/draft/2020-12/vocab/meta-data":         vocabMetaData,
	"https://json-schema.org/draft/2020-12/vocab/format-annotation": vocabFormatAnnotation,
	"https://json-schema.org/draft/2020-12/vocab/format-assertion":  vocabFormatAssertion,
	"https://json-schema.org/draft/2020-12/vocab/content":           vocabContent,
	"https://json-schema.org/draft/2019-09/vocab/core":              vocabCore,
	"https://json-schema.org/draft/2019-09/vocab/applicator":        vocabApplicator | vocabUnevaluated,
	"https://json-schema.org/draft/2019-09/vocab/validation":        vocabValidation,
	"https://json-schema.org/draft/2019-09/vocab/meta-data":         vocabMetaData,
	"https://json-schema.org/draft/2019-09/vocab/format":            vocabFormatAnnotation,
	"https://json-schema.org/draft/2019-09/vocab/content":           vocabContent,
}

// draft numbers.
const (
	draft7    = 7
	draft2019 = 2019
	draft2020 = 2020
)

// dialect is what a $schema URI means: which keywords apply.
type dialect struct {
	draft int
	vocab vocabSet
}

var (
	dialect2020 = &dialect{draft: draft2020, vocab: vocabAll}
	dialect2019 = &dialect{draft: draft2019, vocab: vocabAll}
	dialect7    = &dialect{draft: draft7, vocab: vocabAll}
)

// normalizeMetaURI strips an empty fragment from a meta-schema URI.
func normalizeMetaURI(uri string) string { return strings.TrimSuffix(uri, "#") }

// builtinDialect returns the dialect of a standard meta-schema URI.
func builtinDialect(uri string) *dialect {
	switch normalizeMetaURI(uri) {
	case "https://json-schema.org/draft/2020-12/schema":
		return dialect2020
	case "https://json-schema.org/draft/2019-09/schema":
		return dialect2019
	case "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema":
		return dialect7
	}
	return nil
}

// dialectOf returns the dialect named by a $schema URI, loading a custom
// meta-schema to read its $vocabulary.
func (r *resolver) dialectOf(uri string) (*dialect, error) {
	if d := builtinDialect(uri); d != nil {
		return d, nil
	}
	key := normalizeMetaURI(uri)
	if d, ok := r.dialects[key]; ok {
		if d == nil {
			return nil, fmt.Errorf("jsonschema: meta-schema %s refers to itself as its own dialect", uri)
		}
		return d, nil
	}
	if len(r.dialects) > 32 {
		return nil, fmt.Errorf("jsonschema: too many custom meta-schemas")
	}
	r.dialects[key] = nil // in progress
	res, err := r.resource(key)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: loading meta-schema %s: %w", uri, err)
	}
	meta := res.root.schema
	base := res.root.dialect
	d := &dialect{draft: base.draft, vocab: base.vocab}
	if meta.Vocabulary != nil {
		d.vocab = 0
		for v, required := range meta.Vocabulary {
			set, known := knownVocabs[v]
			if !known {
				if required {
					return nil, fmt.Errorf("jsonschema: meta-schema %s requires unknown vocabulary %s", uri, v)
				}
				continue
			}
			d.vocab |= set
		}
		if d.vocab&vocabCore == 0 {
			return nil, fmt.Errorf("jsonschema: meta-schema %s lacks the core vocabulary", uri)
		}
	}
	r.dialects[key] = d
	return d, nil
}
