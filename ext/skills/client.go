package skills

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/gomcp/sdk/mcp"
)

// Verification errors of Load and ReadFile: content that fails a check is
// never returned.
var (
	// ErrSizeMismatch reports content whose length is not the manifest's.
	ErrSizeMismatch = errors.New("skills: size does not match the manifest")
	// ErrDigestMismatch reports content whose SHA-256 is not the
	// manifest's.
	ErrDigestMismatch = errors.New("skills: digest does not match the manifest")
	// ErrFrontmatterMismatch reports a SKILL.md whose frontmatter differs
	// from the entry's.
	ErrFrontmatterMismatch = errors.New("skills: SKILL.md frontmatter does not match the entry")
	// ErrNotInManifest reports a file that the skill's manifest does not
	// list.
	ErrNotInManifest = errors.New("skills: file not in the skill's manifest")
)

// maxListPages bounds how many pages All follows.
const maxListPages = 1000

// List returns one page of the server's skills (cursor "" for the first).
// It reads no skill file.
func List(ctx context.Context, cs *mcp.ClientSession, cursor string) (*ListResult, error) {
	var res ListResult
	if err := cs.Call(ctx, MethodList, &ListParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// All returns every skill of the server, following pages. It reads no
// skill file.
func All(ctx context.Context, cs *mcp.ClientSession) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		cursor, seen := "", map[string]bool{}
		for range maxListPages {
			page, err := List(ctx, cs, cursor)
			if err != nil {
				yield(Entry{}, err)
				return
			}
			for _, e := range page.Skills {
				if !yield(e, nil) {
					return
				}
			}
			if page.NextCursor == "" {
				return
			}
			if seen[page.NextCursor] {
				yield(Entry{}, fmt.Errorf("skills: %s repeated the cursor %q", MethodList, page.NextCursor))
				return
			}
			seen[page.NextCursor] = true
			cursor = page.NextCursor
		}
		yield(Entry{}, fmt.Errorf("skills: %s did not end after %d pages", MethodList, maxListPages))
	}
}

// Get returns the entry of the skill whose SKILL.md is at uri.
func Get(ctx context.Context, cs *mcp.ClientSession, uri string) (*Entry, error) {
	var res GetResult
	if err := cs.Call(ctx, MethodGet, &GetParams{URI: uri}, &res); err != nil {
		return nil, err
	}
	return &res.Skill, nil
}

// A Skill is a loaded skill: its entry and its verified SKILL.md.
type Skill struct {
	Entry Entry
	// Document is the SKILL.md as read, frontmatter included.
	Document []byte
}

// Load reads the skill's SKILL.md and checks it against the entry: its
// size and digest against the manifest (unless the skill is dynamic) and
// its frontmatter against the entry's, field by field. It returns an error
// wrapping ErrSizeMismatch, ErrDigestMismatch or ErrFrontmatterMismatch,
// and no content, when a check fails.
func Load(ctx context.Context, cs *mcp.ClientSession, e Entry) (*Skill, error) {
	data, err := readChecked(ctx, cs, e, e.URI)
	if err != nil {
		return nil, err
	}
	fm, err := ParseFrontmatter(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFrontmatterMismatch, e.URI, err)
	}
	if !sameJSON(fm, e.Frontmatter) {
		return nil, fmt.Errorf("%w: %s", ErrFrontmatterMismatch, e.URI)
	}
	return &Skill{Entry: e, Document: data}, nil
}

// ReadFile reads the skill's file at uri and checks its size and digest
// against the manifest. A file the manifest does not list is refused with
// ErrNotInManifest, unless the skill is dynamic, whose files are read
// unchecked.
func ReadFile(ctx context.Context, cs *mcp.ClientSession, e Entry, uri string) ([]byte, error) {
	return readChecked(ctx, cs, e, uri)
}

// readChecked reads uri and verifies it against e's manifest.
func readChecked(ctx context.Context, cs *mcp.ClientSession, e Entry, uri string) ([]byte, error) {
	var want *File
	for i := range e.Resources {
		if e.Resources[i].URI == uri {
			want = &e.Resources[i]
		}
	}
	if want == nil && !e.Dynamic {
		return nil, fmt.Errorf("%w: %s", ErrNotInManifest, uri)
	}
	if want != nil && (want.Size < 0 || want.Size > DefaultMaxSkillBytes) {
		return nil, fmt.Errorf("%w: %s: the manifest gives %d bytes", ErrSizeMismatch, uri, want.Size)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	data, err := contentBytes(res, uri)
	if err != nil {
		return nil, err
	}
	if want == nil {
		return data, nil
	}
	if int64(len(data)) != want.Size {
		return nil, fmt.Errorf("%w: %s: read %d bytes, manifest says %d", ErrSizeMismatch, uri, len(data), want.Size)
	}
	sum := sha256.Sum256(data)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != want.Digest {
		return nil, fmt.Errorf("%w: %s", ErrDigestMismatch, uri)
	}
	return data, nil
}

// contentBytes returns the bytes of the contents of uri in res.
func contentBytes(res *mcp.ReadResourceResult, uri string) ([]byte, error) {
	for _, c := range res.Contents {
		if c.URI != uri && len(res.Contents) > 1 {
			continue
		}
		if c.Blob != nil {
			return c.Blob, nil
		}
		return []byte(c.Text), nil
	}
	return nil, fmt.Errorf("skills: resources/read of %s returned no contents", uri)
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
