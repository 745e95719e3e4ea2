package skills_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gomcp/sdk/ext/skills"
	"github.com/gomcp/sdk/mcp"
)

const pdfSkill = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: MIT
metadata:
  author: test
allowed-tools: [Read, Bash]
---
# PDF processing

Skill body.
`

const formsDoc = "# Forms\n\nHow to fill forms.\n"

// testFS is a catalog of two skills; pdf-processing has extra files in a
// subfolder.
func testFS() fstest.MapFS {
	return fstest.MapFS{
		"pdf-processing/SKILL.md":            {Data: []byte(pdfSkill)},
		"pdf-processing/references/FORMS.md": {Data: []byte(formsDoc)},
		"pdf-processing/scripts/fill.py":     {Data: []byte("print('fill')\n")},
		"git-helper/SKILL.md":                {Data: []byte("---\nname: git-helper\ndescription: Helps with git\n---\nUse git.\n")},
		"README.txt":                         {Data: []byte("not a skill")},
	}
}

func newSkillsServer(t *testing.T, pageSize int) *mcp.Server {
	t.Helper()
	cat, err := skills.NewCatalog(testFS(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := mcp.NewServer("skills-test", "v1.0.0", nil)
	skills.AddCatalog(s, cat, &skills.ServeOptions{PageSize: pageSize, DirectoryRead: true})
	return s
}

func connect(t *testing.T, s *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := skills.EnableClient(mcp.NewClient("host", "v1", &mcp.ClientOptions{ProtocolVersion: version})).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var versions = []string{"2025-11-25", "2026-07-28"}

func TestListGetAndLoad(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			ctx := context.Background()
			cs := connect(t, newSkillsServer(t, 1), v)
			if caps := cs.ServerCapabilities(); caps.Extensions[skills.ExtensionID] == nil || caps.Resources == nil {
				t.Fatalf("capabilities %+v: want the extension and resources", caps)
			}
			// Page size 1: two pages, followed by All.
			first, err := skills.List(ctx, cs, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(first.Skills) != 1 || first.NextCursor == "" {
				t.Fatalf("first page: %d skills, cursor %q", len(first.Skills), first.NextCursor)
			}
			if (first.TTLMs != nil) != (v >= "2026-07-28") || (first.CacheScope != "") != (v >= "2026-07-28") {
				t.Errorf("cache hints %v %q at %s", first.TTLMs, first.CacheScope, v)
			}
			var uris []string
			var pdf skills.Entry
			for e, err := range skills.All(ctx, cs) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, e.URI)
				if e.Frontmatter["name"] == "pdf-processing" {
					pdf = e
				}
			}
			want := []string{"skill://git-helper/SKILL.md", "skill://pdf-processing/SKILL.md"}
			if !slices.Equal(uris, want) {
				t.Fatalf("skills %v, want %v", uris, want)
			}
			if len(pdf.Resources) != 3 || !strings.HasPrefix(pdf.Resources[0].Digest, "sha256:") {
				t.Errorf("manifest %+v", pdf.Resources)
			}
			got, err := skills.Get(ctx, cs, pdf.URI)
			if err != nil || got.URI != pdf.URI || len(got.Resources) != 3 {
				t.Fatalf("skills/get: %+v, %v", got, err)
			}
			loaded, err := skills.Load(ctx, cs, pdf)
			if err != nil {
				t.Fatal(err)
			}
			if string(loaded.Document) != pdfSkill {
				t.Errorf("loaded %q", loaded.Document)
			}
			forms, err := skills.ReadFile(ctx, cs, pdf, "skill://pdf-processing/references/FORMS.md")
			if err != nil || string(forms) != formsDoc {
				t.Errorf("ReadFile: %q, %v", forms, err)
			}
			if _, err := skills.ReadFile(ctx, cs, pdf, "skill://git-helper/SKILL.md"); !errors.Is(err, skills.ErrNotInManifest) {
				t.Errorf("file of another skill: %v, want ErrNotInManifest", err)
			}
		})
	}
}

func TestInvalidParams(t *testing.T) {
	ctx := context.Background()
	cs := connect(t, newSkillsServer(t, 50), "2026-07-28")
	for _, tc := range []struct {
		name   string
		method string
		params any
	}{
		{"unknown skill", skills.MethodGet, &skills.GetParams{URI: "skill://nope/SKILL.md"}},
		{"bad cursor", skills.MethodList, &skills.ListParams{Cursor: "!!"}},
		{"directory read of a file", skills.MethodDirectoryRead, &skills.DirectoryReadParams{URI: "skill://pdf-processing/SKILL.md"}},
		{"directory read of nothing", skills.MethodDirectoryRead, &skills.DirectoryReadParams{URI: "skill://nowhere"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res map[string]any
			err := cs.Call(ctx, tc.method, tc.params, &res)
			if code := mcp.CodeOf(err); code != mcp.CodeInvalidParams {
				t.Errorf("error %v (code %d), want -32602", err, code)
			}
		})
	}
}

func TestDirectoryRead(t *testing.T) {
	ctx := context.Background()
	cs := connect(t, newSkillsServer(t, 2), "2025-11-25")
	var all []*mcp.Resource
	cursor := ""
	for range 10 {
		var res skills.DirectoryReadResult
		if err := cs.Call(ctx, skills.MethodDirectoryRead, &skills.DirectoryReadParams{URI: "skill://pdf-processing", Cursor: cursor}, &res); err != nil {
			t.Fatal(err)
		}
		all = append(all, res.Resources...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	var got []string
	for _, r := range all {
		got = append(got, r.URI+" "+r.MIMEType)
	}
	want := []string{
		"skill://pdf-processing/SKILL.md text/markdown",
		"skill://pdf-processing/references inode/directory",
		"skill://pdf-processing/scripts inode/directory",
	}
	if !slices.Equal(got, want) {
		t.Errorf("children:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestClientRefusesTamperedContent serves SKILL.md files that differ from
// their entries, as the extension's verification rules describe.
func TestClientRefusesTamperedContent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		serve  string
		fixFor bool // recompute the manifest for the served bytes
		want   error
	}{
		{"digest", strings.Replace(pdfSkill, "Skill body.", "Evil body!!", 1), false, skills.ErrDigestMismatch},
		{"size", pdfSkill + "extra bytes\n", false, skills.ErrSizeMismatch},
		{"frontmatter", strings.Replace(pdfSkill, "Extract, fill, and assemble PDF documents", "Exfiltrate credentials", 1), true, skills.ErrFrontmatterMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := newSkillsServer(t, 50)
			cs := connect(t, s, "2026-07-28")
			entry, err := skills.Get(ctx, cs, "skill://pdf-processing/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			s.AddResources(&mcp.ServerResource{
				Resource: &mcp.Resource{URI: entry.URI, Name: "pdf-processing", MIMEType: skills.SkillMIMEType},
				Handler: func(context.Context, *mcp.ServerSession, *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{mcp.NewTextResourceContents(entry.URI, skills.SkillMIMEType, tc.serve)}}, nil
				},
			})
			if tc.fixFor {
				tampered, err := skills.NewCatalog(fstest.MapFS{"pdf-processing/SKILL.md": {Data: []byte(tc.serve)}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				entry.Resources[slices.IndexFunc(entry.Resources, func(f skills.File) bool { return f.URI == entry.URI })] = tampered.Entries()[0].Resources[0]
			}
			loaded, err := skills.Load(ctx, cs, *entry)
			if !errors.Is(err, tc.want) || loaded != nil {
				t.Errorf("Load = %v, %v; want no skill and %v", loaded, err, tc.want)
			}
		})
	}
}

func TestNewCatalogRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
	}{
		{"name differs from folder", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: b\ndescription: d\n---\n")}}},
		{"no description", fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\n---\n")}}},
		{"no frontmatter", fstest.MapFS{"a/SKILL.md": {Data: []byte("# a\n")}}},
		{"bad name", fstest.MapFS{"Bad--Name/SKILL.md": {Data: []byte("---\nname: Bad--Name\ndescription: d\n---\n")}}},
		{"too many files", fstest.MapFS{
			"a/SKILL.md": {Data: []byte("---\nname: a\ndescription: d\n---\n")},
			"a/1":        {Data: []byte("1")}, "a/2": {Data: []byte("2")},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := skills.NewCatalog(tc.fsys, &skills.CatalogOptions{MaxFilesPerSkill: 2}); !errors.Is(err, skills.ErrCatalog) {
				t.Errorf("NewCatalog: %v, want ErrCatalog", err)
			}
		})
	}
}
