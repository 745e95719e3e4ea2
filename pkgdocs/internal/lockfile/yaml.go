package lockfile

import "strings"

// node is one "key: value" line of a block-style YAML document and the
// more-indented lines under it. It covers the subset lock files use:
// block mappings with plain, single- or double-quoted keys and scalar
// values. Flow collections are kept as raw values; block scalars are
// skipped; sequences are children with key "-".
type node struct {
	key, value string
	indent     int
	children   []*node
}

// child returns the first child with the given key.
func (n *node) child(key string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.key == key {
			return c
		}
	}
	return nil
}

// kids returns n's children; nil for a nil node.
func (n *node) kids() []*node {
	if n == nil {
		return nil
	}
	return n.children
}

// parseYAML builds the block tree of data. It never fails: lines it does
// not understand are ignored.
func parseYAML(data []byte) *node {
	root := &node{indent: -1}
	stack := []*node{root}
	skipDeeper := -1 // indentation of a block scalar's owner
	for _, raw := range strings.Split(string(data), "\n") {
		raw = strings.TrimRight(raw, "\r \t")
		trimmed := strings.TrimLeft(raw, " ")
		if trimmed == "" || trimmed[0] == '#' || trimmed == "---" || trimmed == "..." {
			continue
		}
		indent := len(raw) - len(trimmed)
		if skipDeeper >= 0 {
			if indent > skipDeeper {
				continue
			}
			skipDeeper = -1
		}
		key, value, ok := splitYAMLLine(trimmed)
		if !ok {
			continue
		}
		for len(stack) > 1 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		n := &node{key: key, value: value, indent: indent}
		parent := stack[len(stack)-1]
		parent.children = append(parent.children, n)
		stack = append(stack, n)
		if strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">") {
			n.value = ""
			skipDeeper = indent
		}
	}
	return root
}

// splitYAMLLine splits `key: value`, `'quoted key': value` or `- item`.
func splitYAMLLine(s string) (key, value string, ok bool) {
	if s == "-" || strings.HasPrefix(s, "- ") {
		return "-", unquoteYAML(strings.TrimSpace(s[1:])), true
	}
	var rest string
	if s[0] == '\'' || s[0] == '"' {
		end := closingQuote(s)
		if end < 0 {
			return "", "", false
		}
		key, rest = unquoteYAML(s[:end+1]), s[end+1:]
		if !strings.HasPrefix(rest, ":") {
			return "", "", false
		}
		rest = rest[1:]
	} else {
		i := strings.Index(s, ": ")
		switch {
		case i >= 0:
			key, rest = s[:i], s[i+1:]
		case strings.HasSuffix(s, ":"):
			key = s[:len(s)-1]
		default:
			return "", "", false
		}
	}
	rest = strings.TrimSpace(rest)
	if i := strings.Index(rest, " #"); i >= 0 && rest[0] != '\'' && rest[0] != '"' {
		rest = strings.TrimSpace(rest[:i])
	}
	return strings.TrimSpace(key), unquoteYAML(rest), true
}

// closingQuote returns the index of the quote closing s[0], honouring
// YAML's ” escape in single quotes and backslashes in double quotes.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i
		}
	}
	return -1
}

func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && closingQuote(s) == len(s)-1 {
		inner := s[1 : len(s)-1]
		if s[0] == '\'' {
			return strings.ReplaceAll(inner, "''", "'")
		}
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(inner)
	}
	return s
}
