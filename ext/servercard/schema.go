package servercard

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gomcp/sdk/jsonschema"
)

// maxSchemaErrors is the most schema failures an error lists.
const maxSchemaErrors = 20

// cardSchemaJSON is the JSON Schema (draft 2020-12) of a card.
//
//go:embed card.schema.json
var cardSchemaJSON []byte

// CardSchema returns the JSON Schema a card is validated against, in a
// copy the caller may change.
func CardSchema() *jsonschema.Schema {
	c, err := compiledSchema()
	if err != nil {
		return nil
	}
	return c.schema.Clone()
}

// A compiled is the card schema and its compiled form.
type compiled struct {
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
}

// compiledSchema returns the card schema compiled, made once.
var compiledSchema = sync.OnceValues(func() (*compiled, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(cardSchemaJSON, &s); err != nil {
		return nil, fmt.Errorf("servercard: the embedded card schema: %w", err)
	}
	// Up to maxSchemaErrors failures are reported, so that one error
	// says most of what is wrong with a card, and a hostile card with
	// thousands of bad members still gets a short one.
	r, err := s.Resolve(&jsonschema.ResolveOptions{AssertFormat: true, MaxErrors: maxSchemaErrors})
	if err != nil {
		return nil, fmt.Errorf("servercard: the embedded card schema: %w", err)
	}
	return &compiled{schema: &s, resolved: r}, nil
})

// validateSchema checks the JSON text of a card against the card schema.
// The error wraps ErrInvalid and the *jsonschema.ValidationError.
func validateSchema(data []byte) error {
	c, err := compiledSchema()
	if err != nil {
		return err
	}
	if err := c.resolved.ValidateJSON(data); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}
