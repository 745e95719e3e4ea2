package doccheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinks checks that every relative link in the guides, the README,
// examples/README.md and ARCHITECTURE.md names a file or directory that
// exists in the repository.
func TestLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	n, errs := CheckLinks(root, "docs", "README.md", "examples/README.md", "ARCHITECTURE.md")
	for _, err := range errs {
		t.Error(err)
	}
	if n == 0 {
		t.Fatal("no relative links found")
	}
}

// TestNoExternalLinks checks that the guides and the examples' README link
// only within the repository, which a reader has in full.
func TestNoExternalLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "examples", "README.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ExternalLinks(string(data)) {
			t.Errorf("%s: link outside the repository: %s", f, l)
		}
	}
}

func TestLinksParse(t *testing.T) {
	md := strings.Join([]string{
		"See [servers](servers.md) and [the overview](../mcp/doc.go#L3).",
		"An ![image](img/a.png \"title\") and [site](https://example.com) and [anchor](#top).",
		"Code `[not](a-link.md)` is skipped.",
		"```",
		"[also](not-a-link.md)",
		"```",
		"[query](x.md?plain=1) [mail](mailto:a@b.c)",
		"[ref]: ../ARCHITECTURE.md",
		"[web]: https://example.com",
	}, "\n")
	got := Links(md)
	want := []string{"servers.md", "../mcp/doc.go", "img/a.png", "x.md", "../ARCHITECTURE.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("Links = %q, want %q", got, want)
	}
	if ext := ExternalLinks(md); !slices.Equal(ext, []string{"https://example.com", "https://example.com"}) {
		t.Fatalf("ExternalLinks = %q", ext)
	}
}

func TestCheckLinksBroken(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "[guides](docs/a.md) [gone](docs/missing.md) [out](../outside.md) [abs](/etc/passwd)\n")
	write("docs/a.md", "[back](../README.md) [dir](.)\n")
	n, errs := CheckLinks(root, "README.md", "docs")
	if n != 6 {
		t.Errorf("links = %d, want 6", n)
	}
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"docs/missing.md: no such file", "../outside.md: points outside", "/etc/passwd: absolute path"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q lack %q", joined, want)
		}
	}
	if len(errs) != 3 {
		t.Errorf("got %d errors, want 3:\n%s", len(errs), joined)
	}
}

func FuzzLinks(f *testing.F) {
	f.Add("[a](b.md) `[c](d)` ![e](f \"g\")")
	f.Add("```\n[x](y)\n```\n[z](<w.md>#frag)")
	f.Fuzz(func(t *testing.T, md string) {
		for _, l := range Links(md) {
			// A target is a non-empty path, fragment and query removed.
			if l == "" || strings.ContainsAny(l, "#?") {
				t.Fatalf("bad link %q from %q", l, md)
			}
		}
	})
}
