package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// A problem is one lint finding.
type problem struct {
	Tool    string `json:"tool"`
	Path    string `json:"path,omitempty"` // JSON pointer into the input schema
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// unportableKeywords are schema keywords that several model providers'
// tool-schema dialects reject or ignore.
var unportableKeywords = map[string]string{
	"$ref":                  "references are not resolved by every client; inline the schema",
	"$defs":                 "definitions need $ref, which not every client resolves",
	"definitions":           "definitions need $ref, which not every client resolves",
	"$dynamicRef":           "dynamic references are rarely supported",
	"oneOf":                 "oneOf is rejected by some providers; prefer anyOf or an enum",
	"allOf":                 "allOf is rejected by some providers; merge the schemas",
	"not":                   "not is rejected by some providers",
	"if":                    "conditional schemas are rejected by some providers",
	"then":                  "conditional schemas are rejected by some providers",
	"else":                  "conditional schemas are rejected by some providers",
	"patternProperties":     "patternProperties is rejected by some providers",
	"dependentSchemas":      "dependentSchemas is rejected by some providers",
	"dependentRequired":     "dependentRequired is rejected by some providers",
	"unevaluatedProperties": "unevaluatedProperties is rejected by some providers",
	"unevaluatedItems":      "unevaluatedItems is rejected by some providers",
	"prefixItems":           "tuple schemas are rejected by some providers",
	"contains":              "contains is rejected by some providers",
	"propertyNames":         "propertyNames is rejected by some providers",
}

// lintTools checks tool names (the spec's rules, and the stricter
// ^[a-zA-Z0-9_-]{1,64}$ many model APIs enforce) and input schemas.
func lintTools(tools []*mcp.Tool) []problem {
	var out []problem
	seen := map[string]bool{}
	for _, t := range tools {
		add := func(path, rule, format string, args ...any) {
			out = append(out, problem{Tool: t.Name, Path: path, Rule: rule, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case t.Name == "" || len(t.Name) > 128:
			add("", "name-length", "the name should have 1 to 128 characters, it has %d", len(t.Name))
		case len(t.Name) > 64:
			add("", "name-portable", "names longer than 64 characters are rejected by several model APIs")
		}
		if bad := badNameChars(t.Name, true); bad != "" {
			add("", "name-chars", "the name should use only A-Z a-z 0-9 _ - . (it has %q)", bad)
		} else if strings.Contains(t.Name, ".") {
			add("", "name-portable", "dots in names are rejected by several model APIs (^[a-zA-Z0-9_-]{1,64}$)")
		}
		if seen[t.Name] {
			add("", "name-unique", "another tool has the same name")
		}
		seen[t.Name] = true
		if strings.TrimSpace(t.Description) == "" {
			add("", "description", "the tool has no description")
		}
		out = append(out, lintSchema(t.Name, t.InputSchema)...)
	}
	return out
}

// badNameChars returns the characters of name outside A-Z a-z 0-9 _ - and
// (if dot) '.'.
func badNameChars(name string, dot bool) string {
	var bad strings.Builder
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || (dot && r == '.')
		if !ok && !strings.ContainsRune(bad.String(), r) {
			bad.WriteRune(r)
		}
	}
	return bad.String()
}

// lintSchema checks an input schema: an object at the root, no type
// arrays, no unportable keywords, descriptions on properties.
func lintSchema(tool string, schema any) []problem {
	var out []problem
	data, ok := schema.(json.RawMessage)
	if !ok {
		var err error
		if data, err = strictjson.Marshal(schema); err != nil {
			return []problem{{Tool: tool, Rule: "schema", Message: "the input schema does not encode as JSON"}}
		}
	}
	var root any
	if err := strictjson.Unmarshal(data, &root); err != nil {
		return []problem{{Tool: tool, Rule: "schema", Message: "the input schema is not valid JSON: " + err.Error()}}
	}
	obj, _ := root.(map[string]any)
	if obj == nil || obj["type"] != "object" {
		out = append(out, problem{Tool: tool, Rule: "schema-root", Message: `the input schema must have "type": "object" at its root`})
	}
	walkSchema(root, "", func(path string, node map[string]any, isProperty bool) {
		add := func(rule, msg string) {
			out = append(out, problem{Tool: tool, Path: path, Rule: rule, Message: msg})
		}
		if _, isArray := node["type"].([]any); isArray {
			add("type-array", "type arrays are not portable; use one type (and make the property optional for null)")
		}
		keys := make([]string, 0, len(node))
		for k := range node {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if why, bad := unportableKeywords[k]; bad {
				add("keyword", k+": "+why)
			}
		}
		if isProperty {
			if d, _ := node["description"].(string); strings.TrimSpace(d) == "" {
				add("description", "the property has no description")
			}
		}
	})
	return out
}

// walkSchema calls f for every subschema, with its JSON pointer and
// whether it is the schema of an object property.
// Only properties reached through properties and items count as
// properties: those under conditions or definitions are checked for
// keywords alone.
func walkSchema(node any, path string, f func(path string, node map[string]any, isProperty bool)) {
	walk(node, path, false, true, f)
}

func walk(node any, path string, isProperty, plain bool, f func(string, map[string]any, bool)) {
	obj, ok := node.(map[string]any)
	if !ok {
		return
	}
	f(path, obj, isProperty && plain)
	if props, ok := obj["properties"].(map[string]any); ok {
		for _, k := range sortedAnyKeys(props) {
			walk(props[k], path+"/properties/"+escapePointer(k), true, plain, f)
		}
	}
	walk(obj["items"], path+"/items", false, plain, f)
	for _, k := range []string{"additionalProperties", "not", "if", "then", "else", "contains"} {
		walk(obj[k], path+"/"+k, false, false, f)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := obj[k].([]any); ok {
			for i, sub := range list {
				walk(sub, fmt.Sprintf("%s/%s/%d", path, k, i), false, false, f)
			}
		}
	}
	for _, k := range []string{"$defs", "definitions", "patternProperties", "dependentSchemas"} {
		if m, ok := obj[k].(map[string]any); ok {
			for _, name := range sortedAnyKeys(m) {
				walk(m[name], path+"/"+k+"/"+escapePointer(name), false, false, f)
			}
		}
	}
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func cmdLint(ctx context.Context, c *cmdCtx) error {
	ctx, cancel := c.oneShot(ctx)
	defer cancel()
	s, err := c.connect(ctx, mcp.ClientOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	tools, _, err := listTools(ctx, s, 0)
	if err != nil {
		return err
	}
	problems := lintTools(tools)
	if c.o.json {
		if err := printJSON(c.env.stdout, struct {
			Tools    int       `json:"tools"`
			Problems []problem `json:"problems"`
		}{len(tools), orEmpty(problems)}); err != nil {
			return err
		}
	} else {
		for _, p := range problems {
			where := p.Tool
			if p.Path != "" {
				where += " " + p.Path
			}
			fmt.Fprintf(c.env.stdout, "%s: %s (%s)\n", where, p.Message, p.Rule)
		}
		fmt.Fprintf(c.env.stdout, "%d tools, %d problems\n", len(tools), len(problems))
	}
	if len(problems) > 0 {
		return &cliError{exit: exitLint, code: "lint_problems", msg: fmt.Sprintf("%d problems in %d tools", len(problems), len(tools))}
	}
	return nil
}
