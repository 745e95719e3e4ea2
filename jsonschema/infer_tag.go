package jsonschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// tagKeys are the keys of jsonschema struct tags; flags have no value.
var tagKeys = map[string]bool{
	"description": false, "title": false, "enum": false, "default": false,
	"minimum": false, "maximum": false, "exclusiveMinimum": false, "exclusiveMaximum": false,
	"multipleOf": false, "minLength": false, "maxLength": false, "pattern": false, "format": false,
	"minItems": false, "maxItems": false,
	"deprecated": true, "uniqueItems": true, "readOnly": true, "writeOnly": true, "nullable": true,
}

// tagItem is one key=value item of a jsonschema tag.
type tagItem struct{ key, value string }

// parseTag splits a jsonschema tag into items. A tag that does not start
// with a key is a description.
func parseTag(tag string) []tagItem {
	if tag == "" {
		return nil
	}
	first, _, _ := strings.Cut(tag, ",")
	if _, ok := tagItemKey(first); !ok {
		return []tagItem{{"description", tag}}
	}
	var items []tagItem
	for _, part := range strings.Split(tag, ",") {
		if key, ok := tagItemKey(part); ok {
			_, value, _ := strings.Cut(part, "=")
			items = append(items, tagItem{key, value})
			continue
		}
		last := &items[len(items)-1]
		last.value += "," + part
	}
	return items
}

// tagItemKey returns the key an item starts with, if any: "key=..." or a
// bare flag.
func tagItemKey(s string) (string, bool) {
	key, _, hasValue := strings.Cut(s, "=")
	flag, known := tagKeys[key]
	if !known || flag == hasValue {
		return "", false
	}
	return key, true
}

// applyTag applies the jsonschema tag of field f to its schema s.
func applyTag(s *Schema, f jsonField) error {
	tag, ok := f.tag.Lookup("jsonschema")
	if !ok {
		return nil
	}
	for _, it := range parseTag(tag) {
		if err := applyTagItem(s, it, f.quoted); err != nil {
			return fmt.Errorf("jsonschema tag %s: %w", it.key, err)
		}
	}
	return nil
}

// tagFlag reports whether the jsonschema tag of field f has the flag.
func tagFlag(f jsonField, flag string) bool {
	tag, ok := f.tag.Lookup("jsonschema")
	if !ok {
		return false
	}
	for _, it := range parseTag(tag) {
		if it.key == flag {
			return true
		}
	}
	return false
}

func applyTagItem(s *Schema, it tagItem, quoted bool) error {
	var err error
	switch it.key {
	case "description":
		s.Description = it.value
	case "title":
		s.Title = it.value
	case "pattern":
		if _, err := compilePattern(it.value); err != nil {
			return err
		}
		s.Pattern = it.value
	case "format":
		s.Format = it.value
	case "deprecated":
		s.Deprecated = true
	case "uniqueItems":
		s.UniqueItems = true
	case "readOnly":
		s.ReadOnly = true
	case "writeOnly":
		s.WriteOnly = true
	case "nullable":
		// applied by the caller, which may have to wrap s (tagFlag)
	case "minimum":
		s.Minimum, err = tagFloat(it.value)
	case "maximum":
		s.Maximum, err = tagFloat(it.value)
	case "exclusiveMinimum":
		s.ExclusiveMinimum, err = tagFloat(it.value)
	case "exclusiveMaximum":
		s.ExclusiveMaximum, err = tagFloat(it.value)
	case "multipleOf":
		s.MultipleOf, err = tagFloat(it.value)
	case "minLength":
		s.MinLength, err = tagInt(it.value)
	case "maxLength":
		s.MaxLength, err = tagInt(it.value)
	case "minItems":
		s.MinItems, err = tagInt(it.value)
	case "maxItems":
		s.MaxItems, err = tagInt(it.value)
	case "enum":
		s.Enum = nil
		for _, v := range strings.Split(it.value, "|") {
			val, err := tagValue(s, v, quoted)
			if err != nil {
				return err
			}
			s.Enum = append(s.Enum, val)
		}
	case "default":
		val, err := tagValue(s, it.value, quoted)
		if err != nil {
			return err
		}
		b, err := json.Marshal(val)
		if err != nil {
			return err
		}
		s.Default = b
	}
	return err
}

func tagFloat(v string) (*float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number", v)
	}
	return &f, nil
}

func tagInt(v string) (*int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%q is not a non-negative integer", v)
	}
	return &n, nil
}

// tagValue parses an enum or default value for schema s: JSON, except that
// for string schemas a value that is not a JSON string is the string itself.
func tagValue(s *Schema, v string, quoted bool) (any, error) {
	if tagValueKind(s) == "string" || quoted {
		var str string
		if strings.HasPrefix(v, `"`) && json.Unmarshal([]byte(v), &str) == nil {
			return str, nil
		}
		return v, nil
	}
	var val any
	d := json.NewDecoder(strings.NewReader(v))
	d.UseNumber()
	if err := d.Decode(&val); err != nil || d.More() {
		return nil, fmt.Errorf("%q is not a JSON value", v)
	}
	return val, nil
}
