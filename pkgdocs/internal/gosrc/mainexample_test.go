package gosrc

import (
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/readme"
)

// TestMainExampleFirst: the README's main usage example is the first usage
// section of a package's description, whatever its heading and however
// many usage sections come before it.
func TestMainExampleFirst(t *testing.T) {
	const fence = "```"
	for _, tc := range []struct {
		name, doc, readme string
		want              string // title of the first usage section
	}{
		{
			name: "many usage sections before the example (zerolog)",
			readme: "# Logger\n\nFast.\n\n## Installation\n\n" + fence + "bash\ngo get example.com/log\n" + fence + "\n\n" +
				"## Getting Started\n\n### Contextual Logging\n\nAdd fields with With.\n\n### Simple Logging Example\n\n" +
				fence + "go\nfunc main() {\n\tlog.Print(\"hello world\")\n}\n" + fence + "\n",
			want: "Getting Started › Simple Logging Example",
		},
		{
			name: "an import line is not the example (gin)",
			readme: "# Web\n\n## Installation\n\n" + fence + "go\nimport \"example.com/web\"\n" + fence + "\n\n" +
				"## Quick start\n\n" + fence + "go\nr := web.Default()\nr.Run()\n" + fence + "\n",
			want: "Quick start",
		},
		{
			name: "usage shown as an import diff (go-json)",
			readme: "# JSON\n\n## How to use\n\n" + fence + "\n-import \"encoding/json\"\n+import \"example.com/json\"\n" + fence + "\n\n" +
				"## How it works\n\n### Buffer reuse\n\n" + fence + "go\nbuf := pool.Get()\n" + fence + "\n",
			want: "How to use",
		},
		{
			name:   "no code: the order is the README's",
			readme: "# Tool\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall Run.\n",
			want:   "Install",
		},
		{
			name: "a package documented by its doc comment only (pgxpool)",
			doc:  "// Package m pools.\n//\n// # Configuration\n//\n// Set the size first.\n//\n// # Creating a Pool\n//\n// Create one with New:\n//\n//\tpool, err := m.New(ctx, url)\n",
			want: "Creating a Pool",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			if doc == "" {
				doc = "// Package m is a package.\n"
			}
			files := map[string][]byte{"m.go": []byte(doc + "package m\n\n// Run runs.\nfunc Run() {}\n")}
			if tc.readme != "" {
				files["README.md"] = []byte(tc.readme)
			}
			pkg, err := Extract(archive.FromFiles(files), "", "example.com/m", Target{})
			if err != nil {
				t.Fatal(err)
			}
			var first *model.Section
			for i, s := range pkg.Sections {
				if s.Priority > model.PriorityOverview {
					first = &pkg.Sections[i]
					break
				}
			}
			if first == nil || first.Title() != tc.want {
				var titles []string
				for _, s := range pkg.Sections {
					titles = append(titles, s.Title())
				}
				t.Fatalf("first section after the overview: %v; want %q (sections: %s)", first, tc.want, strings.Join(titles, " | "))
			}
		})
	}
}

// FuzzPromoteMainExample: whatever the README, promoting its main example
// neither loses nor invents a section, and a promoted section is a usage
// section.
func FuzzPromoteMainExample(f *testing.F) {
	f.Add("# T\n\n## Install\n\n```sh\ngo get x\n```\n\n## Usage\n\n```go\nx := 1\n```\n")
	f.Add("## A\n\n\tpool, err := New()\n\n## B\n\n```\n-import \"a\"\n+import \"b\"\n```\n")
	f.Add("```go\nimport \"x\"\n```\n~~~\nfunc main() {}\n~~~\n")
	f.Fuzz(func(t *testing.T, src string) {
		secs := readme.Sections([]byte(src), "README.md")
		got := promoteMainExample(append([]model.Section(nil), secs...), "README.md")
		if len(got) != len(secs) {
			t.Fatalf("%d sections in, %d out", len(secs), len(got))
		}
		count := map[string]int{}
		for _, s := range secs {
			count[s.Markdown]++
		}
		for _, s := range got {
			count[s.Markdown]--
		}
		for md, n := range count {
			if n != 0 {
				t.Fatalf("section %q: count changed by %d", md, -n)
			}
		}
	})
}
