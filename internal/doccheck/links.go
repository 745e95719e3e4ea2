package doccheck

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// linkRE matches the target of an inline Markdown link or image:
// [text](target) or [text](target "title").
var linkRE = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)

// refDefRE matches a link reference definition: [label]: target.
var refDefRE = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s+(\S+)`)

// Links returns the relative link targets of a Markdown document (inline
// links, images and reference definitions), skipping
// fenced code blocks and inline code spans. Targets with a scheme (https:,
// mailto:) and in-page anchors (#name) are left out; a fragment or query
// after a path is removed.
func Links(md string) []string {
	rel, _ := splitLinks(md)
	return rel
}

// ExternalLinks returns the http and https link targets of a Markdown
// document, skipping code as Links does.
func ExternalLinks(md string) []string {
	_, ext := splitLinks(md)
	return ext
}

// splitLinks returns the relative and the web link targets of md.
func splitLinks(md string) (rel, ext []string) {
	inBlock := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			continue
		}
		matches := linkRE.FindAllStringSubmatch(stripCodeSpans(line), -1)
		if m := refDefRE.FindStringSubmatch(line); m != nil {
			matches = append(matches, m)
		}
		for _, m := range matches {
			target := strings.Trim(m[1], "<>")
			u, err := url.Parse(target)
			switch {
			case err != nil:
				continue
			case u.Scheme == "http" || u.Scheme == "https" || strings.HasPrefix(target, "//"):
				ext = append(ext, target)
				continue
			case u.Scheme != "":
				continue
			}
			if i := strings.IndexAny(target, "#?"); i >= 0 {
				target = target[:i]
			}
			if target != "" {
				rel = append(rel, target)
			}
		}
	}
	return rel, ext
}

// stripCodeSpans removes `inline code` from a line, where brackets and
// parentheses are not links.
func stripCodeSpans(line string) string {
	var b strings.Builder
	in := false
	for _, r := range line {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CheckLinks checks the relative links of the Markdown files at paths (files
// or directories, relative to root) and returns one error per link whose
// target, resolved against the linking file's directory, does not exist or
// lies outside root.
func CheckLinks(root string, paths ...string) (links int, errs []error) {
	for _, p := range paths {
		err := filepath.WalkDir(filepath.Join(root, p), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			for _, target := range Links(string(data)) {
				links++
				if err := checkLink(root, path, target); err != nil {
					errs = append(errs, fmt.Errorf("%s: link %s: %w", filepath.ToSlash(rel), target, err))
				}
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return links, errs
}

func checkLink(root, from, target string) error {
	if unescaped, err := url.PathUnescape(target); err == nil {
		target = unescaped
	}
	if strings.HasPrefix(target, "/") {
		return fmt.Errorf("absolute path; use a path relative to the file")
	}
	dest := filepath.Join(filepath.Dir(from), filepath.FromSlash(target))
	if r, err := filepath.Rel(root, dest); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("points outside the repository")
	}
	if _, err := os.Stat(dest); err != nil {
		return fmt.Errorf("no such file or directory")
	}
	return nil
}
