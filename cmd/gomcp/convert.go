package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// propSchema is the part of a JSON Schema that converts command-line
// values: the type (a name or an array of names), items, properties,
// enum and the alternatives of anyOf/oneOf.
type propSchema struct {
	Type       json.RawMessage        `json:"type"`
	Properties map[string]*propSchema `json:"properties"`
	Items      *propSchema            `json:"items"`
	AnyOf      []*propSchema          `json:"anyOf"`
	OneOf      []*propSchema          `json:"oneOf"`
	Required   []string               `json:"required"`
	Enum       []json.RawMessage      `json:"enum"`
}

// parseSchema decodes an input schema; an unreadable one converts nothing.
func parseSchema(raw any) *propSchema {
	var data []byte
	switch v := raw.(type) {
	case json.RawMessage:
		data = v
	case nil:
		return &propSchema{}
	default:
		var err error
		if data, err = strictjson.Marshal(v); err != nil {
			return &propSchema{}
		}
	}
	var s propSchema
	if err := strictjson.Unmarshal(data, &s); err != nil {
		return &propSchema{}
	}
	return &s
}

// types lists the schema's type names, from "type" or, failing that, the
// alternatives of anyOf and oneOf.
func (s *propSchema) types() []string {
	if s == nil {
		return nil
	}
	var one string
	if err := json.Unmarshal(s.Type, &one); err == nil {
		return []string{one}
	}
	var many []string
	if err := json.Unmarshal(s.Type, &many); err == nil {
		return many
	}
	var out []string
	for _, alt := range append(append([]*propSchema(nil), s.AnyOf...), s.OneOf...) {
		out = append(out, alt.types()...)
	}
	return out
}

// buildArgs makes the arguments object of a call (or the arguments of a
// prompt) from --args bases and key=value / key:=JSON pairs, converting
// each value by the schema.
func buildArgs(env *environ, schema *propSchema, bases []string, pairs []string) (map[string]any, error) {
	args := map[string]any{}
	for _, b := range bases {
		data := []byte(b)
		if name, ok := strings.CutPrefix(b, "@"); ok {
			var err error
			if data, err = readArgsFile(env, name); err != nil {
				return nil, usageError("--args %s: %v", b, err)
			}
		}
		var obj map[string]any
		if err := strictjson.Unmarshal(data, &obj); err != nil {
			return nil, usageError("--args: want a JSON object: %v", err)
		}
		for k, v := range obj {
			args[k] = v
		}
	}
	for _, p := range pairs {
		key, value, err := convertPair(schema, p)
		if err != nil {
			return nil, err
		}
		args[key] = value
	}
	return args, nil
}

// readArgsFile reads --args @file (@- is stdin), at most 16 MiB.
func readArgsFile(env *environ, name string) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		r = env.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxConfigSize+1))
	if len(data) > maxConfigSize {
		return nil, fmt.Errorf("larger than %d bytes", maxConfigSize)
	}
	return data, err
}

// convertPair converts key=value (by the schema) or key:=JSON (as is).
func convertPair(schema *propSchema, pair string) (string, any, error) {
	if i := strings.Index(pair, ":="); i > 0 && (strings.IndexByte(pair, '=') == i+1) {
		key, raw := pair[:i], pair[i+2:]
		var v any
		if err := strictjson.Unmarshal([]byte(raw), &v); err != nil {
			return "", nil, usageError("%s:= wants JSON: %v", key, err)
		}
		return key, v, nil
	}
	key, value, ok := strings.Cut(pair, "=")
	if !ok || key == "" {
		return "", nil, usageError("argument %q: want key=value or key:=JSON", pair)
	}
	var prop *propSchema
	if schema != nil {
		prop = schema.Properties[key]
	}
	v, err := convertValue(prop, value)
	if err != nil {
		return "", nil, usageError("argument %s: %v", key, err)
	}
	return key, v, nil
}

// convertValue converts one command-line value to the first of the
// schema's types it fits; without a schema, JSON numbers, booleans, null,
// arrays and objects are taken as JSON and anything else as a string.
func convertValue(prop *propSchema, value string) (any, error) {
	types := prop.types()
	if len(types) == 0 {
		var v any
		if strictjson.Unmarshal([]byte(value), &v) == nil {
			if _, isString := v.(string); !isString {
				return v, nil
			}
		}
		return value, nil
	}
	var firstErr error
	for _, t := range types {
		v, err := convertAs(t, prop, value)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

func convertAs(typ string, prop *propSchema, value string) (any, error) {
	switch typ {
	case "string":
		return value, nil
	case "integer":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", value)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", value)
		}
		return f, nil
	case "boolean":
		switch strings.ToLower(value) {
		case "true", "yes", "1", "on":
			return true, nil
		case "false", "no", "0", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a boolean", value)
	case "null":
		if value == "null" || value == "" {
			return nil, nil
		}
		return nil, fmt.Errorf("%q is not null", value)
	case "array":
		if strings.HasPrefix(strings.TrimSpace(value), "[") {
			var v []any
			if err := strictjson.Unmarshal([]byte(value), &v); err != nil {
				return nil, fmt.Errorf("not a JSON array: %v", err)
			}
			return v, nil
		}
		out := []any{}
		if value == "" {
			return out, nil
		}
		var items *propSchema
		if prop != nil {
			items = prop.Items
		}
		for _, part := range strings.Split(value, ",") {
			v, err := convertValue(items, part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "object":
		var v map[string]any
		if err := strictjson.Unmarshal([]byte(value), &v); err != nil {
			return nil, fmt.Errorf("not a JSON object: %v", err)
		}
		return v, nil
	}
	return value, nil
}
