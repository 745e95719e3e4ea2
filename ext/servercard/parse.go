package servercard

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ParseCard decodes the JSON text of a card and validates it: strict JSON
// (no duplicate member names, member names matched case-sensitively),
// valid against the card schema (the exact $schema URL, the name's form
// and length, a version that is not a range, a description of 1 to 100
// characters, the transport types, the remote URLs' form, the input
// formats), and no filled-in secret. Any failure wraps ErrInvalid.
//
// Warnings are what a card should not have but a client can live with:
// members of superseded card shapes (tools, capabilities, ...), which are
// ignored, and remotes served over plain http to a host that is not
// loopback.
func ParseCard(data []byte) (card *Card, warnings []string, err error) {
	top, err := decodeObject(data, "card")
	if err != nil {
		return nil, nil, err
	}
	if err := validateSchema(data); err != nil {
		return nil, nil, err
	}
	var c Card
	if err := strictjson.Unmarshal(data, &c); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := invalid(leaks(&c)); err != nil {
		return nil, nil, err
	}
	for _, m := range supersededMembers {
		if _, ok := top[m]; ok {
			warnings = append(warnings, fmt.Sprintf("member %q belongs to a superseded card shape and is ignored: cards list no primitives or capabilities", m))
		}
	}
	warnings = append(warnings, insecureRemotes(&c)...)
	return &c, warnings, nil
}

// decodeObject checks that data is one strict JSON object and returns its
// members, undecoded.
func decodeObject(data []byte, what string) (map[string]json.RawMessage, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: the %s is empty", ErrInvalid, what)
	}
	var top map[string]json.RawMessage
	if err := strictjson.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: the %s is not a JSON object: %w", ErrInvalid, what, err)
	}
	if top == nil {
		return nil, fmt.Errorf("%w: the %s is null", ErrInvalid, what)
	}
	return top, nil
}

// invalid joins problems into one error wrapping ErrInvalid, or returns
// nil for none.
func invalid(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(problems, "; "))
}
