// Package doccheck keeps the Go code shown in the repository's Markdown
// guides identical to code that compiles.
//
// Every fenced Go block in a guide is preceded by a marker naming the file
// it is taken from, relative to the repository root, and optionally a region
// of that file:
//
//	<!-- code: examples/typed-tools/main.go region=tool -->
//
// A region is delimited in the source file by two comment lines:
//
//	// docs:region tool
//	...
//	// docs:endregion
//
// [Check] reports every block without a marker, every marker whose file or
// region is missing, and every block that differs from its source (after
// removing the indentation common to all lines of the region).
package doccheck

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Block is a fenced Go code block of a Markdown file with the source it
// claims to come from.
type Block struct {
	// Doc is the Markdown file and Line the line of the opening fence.
	Doc  string
	Line int
	// Source is the file named by the marker, relative to the repository
	// root, and Region the region within it ("" for the whole file).
	Source string
	Region string
	// Text is the block's content, one line per line, without the fences.
	Text string
}

var markerRE = regexp.MustCompile(`^<!--\s*code:\s*(\S+)(?:\s+region=(\S+))?\s*-->\s*$`)

// Blocks returns the Go code blocks of the Markdown file at path (named doc
// in errors). A Go block without a marker on the line before it is an error.
func Blocks(path, doc string) ([]Block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var (
		blocks  []Block
		errs    []string
		lines   = strings.Split(string(data), "\n")
		prev    string
		inBlock bool
		cur     *Block
		body    []string
	)
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case inBlock && trimmed == "```":
			inBlock = false
			if cur != nil {
				cur.Text = strings.Join(body, "\n")
				blocks = append(blocks, *cur)
			}
			cur, body = nil, nil
		case inBlock:
			body = append(body, line)
		case strings.HasPrefix(trimmed, "```"):
			inBlock = true
			if strings.TrimPrefix(trimmed, "```") != "go" {
				break
			}
			m := markerRE.FindStringSubmatch(strings.TrimSpace(prev))
			if m == nil {
				errs = append(errs, fmt.Sprintf("%s:%d: Go block without a <!-- code: FILE [region=NAME] --> marker", doc, i+1))
				break
			}
			cur = &Block{Doc: doc, Line: i + 1, Source: m[1], Region: m[2]}
		}
		if trimmed != "" {
			prev = line
		}
	}
	if inBlock {
		errs = append(errs, fmt.Sprintf("%s: unterminated code block", doc))
	}
	if len(errs) > 0 {
		return blocks, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return blocks, nil
}

// Region returns the text of the named region of a source file, with the
// indentation common to its lines removed; name "" means the whole file.
func Region(src []byte, name string) (string, error) {
	if name == "" {
		return strings.TrimRight(string(src), "\n"), nil
	}
	var (
		out   []string
		in    bool
		found bool
	)
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		t := strings.TrimSpace(line)
		switch {
		case t == "// docs:region "+name:
			if found {
				return "", fmt.Errorf("region %q appears twice", name)
			}
			in, found = true, true
		case in && t == "// docs:endregion":
			in = false
		case in && strings.HasPrefix(t, "// docs:"):
			// Markers of nested regions are not shown.
		case in:
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if !found {
		return "", fmt.Errorf("no region %q", name)
	}
	if in {
		return "", fmt.Errorf("region %q has no docs:endregion", name)
	}
	return dedent(out), nil
}

// dedent removes the leading whitespace common to all non-blank lines.
func dedent(lines []string) string {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ws, false
			continue
		}
		for !strings.HasPrefix(ws, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, prefix)
		if strings.TrimSpace(l) == "" {
			out[i] = ""
		}
	}
	return strings.Join(out, "\n")
}

// Check checks the Markdown files at paths (files or directories, relative
// to the repository root) and returns the source files their blocks come
// from, relative to root, and one error per problem found.
func Check(root string, paths ...string) (sources []string, errs []error) {
	seen := map[string]bool{}
	for _, p := range paths {
		sources, errs = checkTree(root, p, seen, sources, errs)
	}
	return sources, errs
}

func checkTree(root, dir string, seen map[string]bool, sources []string, errs []error) ([]string, []error) {
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		blocks, err := Blocks(path, filepath.ToSlash(rel))
		if err != nil {
			errs = append(errs, err)
		}
		for _, b := range blocks {
			if err := checkBlock(root, b); err != nil {
				errs = append(errs, err)
			}
			if !seen[b.Source] {
				seen[b.Source] = true
				sources = append(sources, b.Source)
			}
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return sources, errs
}

func checkBlock(root string, b Block) error {
	if filepath.IsAbs(b.Source) || strings.Contains(b.Source, "..") {
		return fmt.Errorf("%s:%d: source %s must be relative to the repository root", b.Doc, b.Line, b.Source)
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(b.Source)))
	if err != nil {
		return fmt.Errorf("%s:%d: %w", b.Doc, b.Line, err)
	}
	want, err := Region(src, b.Region)
	if err != nil {
		return fmt.Errorf("%s:%d: %s: %w", b.Doc, b.Line, b.Source, err)
	}
	if want != b.Text {
		return fmt.Errorf("%s:%d: block differs from %s region %q; it should read:\n%s", b.Doc, b.Line, b.Source, b.Region, want)
	}
	return nil
}
