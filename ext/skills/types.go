package skills

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/mcp"
)

// ExtensionID is the identifier of the Skills extension, the key of its
// entry in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/skills"

// Methods of the extension.
const (
	MethodList          = "skills/list"
	MethodGet           = "skills/get"
	MethodDirectoryRead = "resources/directory/read"
)

// URIScheme is the scheme of the skills a Catalog serves.
const URIScheme = "skill://"

// SkillFile is the name of a skill's manifest file.
const SkillFile = "SKILL.md"

// SkillMIMEType is the media type of a SKILL.md resource.
const SkillMIMEType = "text/markdown"

// DirectoryMIMEType is the media type of a folder in a directory listing.
const DirectoryMIMEType = "inode/directory"

// Dynamic is the value of Entry.Resources for a skill whose files are not
// listed ahead of time.
const Dynamic = "dynamic"

// An Entry describes one skill in skills/list and skills/get.
type Entry struct {
	// URI is the URI of the skill's SKILL.md; its last folder is the
	// skill's name.
	URI string `json:"uri"`
	// Frontmatter is the YAML frontmatter of SKILL.md as a JSON object; it
	// has at least "name" and "description".
	Frontmatter map[string]any `json:"frontmatter"`
	// Resources is the manifest of the skill's files, SKILL.md included,
	// each once; nil with Dynamic set means the skill publishes none.
	Resources []File `json:"-"`
	// Dynamic tells that the skill publishes no manifest.
	Dynamic bool `json:"-"`
	// Meta is the entry's _meta.
	Meta map[string]any `json:"_meta,omitempty"`
}

// A File is one file of a skill's manifest.
type File struct {
	// URI is the file's resource URI.
	URI string `json:"uri"`
	// Digest is "sha256:" and the 64 lowercase hex digits of the SHA-256
	// of the file's bytes.
	Digest string `json:"digest"`
	// Size is the file's length in bytes.
	Size int64 `json:"size"`
}

// entryJSON is the wire form of an Entry.
type entryJSON struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
	Meta        map[string]any  `json:"_meta,omitempty"`
}

// MarshalJSON encodes the entry, with "resources" either the manifest or
// "dynamic".
func (e Entry) MarshalJSON() ([]byte, error) {
	w := entryJSON{URI: e.URI, Frontmatter: e.Frontmatter, Meta: e.Meta}
	var err error
	if e.Dynamic {
		w.Resources = json.RawMessage(`"` + Dynamic + `"`)
	} else {
		files := e.Resources
		if files == nil {
			files = []File{}
		}
		if w.Resources, err = json.Marshal(files); err != nil {
			return nil, err
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an entry whose "resources" is a manifest or
// "dynamic".
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w entryJSON
	if err := strictjson.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Entry{URI: w.URI, Frontmatter: w.Frontmatter, Meta: w.Meta}
	switch r := bytes.TrimSpace(w.Resources); {
	case string(r) == `"`+Dynamic+`"`:
		e.Dynamic = true
	case len(r) > 0 && r[0] == '[':
		return strictjson.Unmarshal(r, &e.Resources)
	default:
		return fmt.Errorf("skills: entry %s: resources is %.40s, neither a manifest nor %q", w.URI, r, Dynamic)
	}
	return nil
}

// ListParams are the params of skills/list.
type ListParams struct {
	Meta   mcp.Meta `json:"_meta,omitzero"`
	Cursor string   `json:"cursor,omitempty"`
}

// ListResult is the result of skills/list.
type ListResult struct {
	Meta       mcp.Meta `json:"_meta,omitzero"`
	Skills     []Entry  `json:"skills"`
	NextCursor string   `json:"nextCursor,omitempty"`
	// TTLMs and CacheScope are the cache hints of 2026-07-28.
	TTLMs      *int64 `json:"ttlMs,omitzero"`
	CacheScope string `json:"cacheScope,omitempty"`
	// ResultType is "complete" in 2026-07-28 results.
	ResultType string `json:"resultType,omitempty"`
}

// GetParams are the params of skills/get.
type GetParams struct {
	Meta mcp.Meta `json:"_meta,omitzero"`
	// URI is the URI of the skill's SKILL.md.
	URI string `json:"uri"`
}

// GetResult is the result of skills/get.
type GetResult struct {
	Meta       mcp.Meta `json:"_meta,omitzero"`
	Skill      Entry    `json:"skill"`
	TTLMs      *int64   `json:"ttlMs,omitzero"`
	CacheScope string   `json:"cacheScope,omitempty"`
	ResultType string   `json:"resultType,omitempty"`
}

// DirectoryReadParams are the params of resources/directory/read.
type DirectoryReadParams struct {
	Meta   mcp.Meta `json:"_meta,omitzero"`
	URI    string   `json:"uri"`
	Cursor string   `json:"cursor,omitempty"`
}

// DirectoryReadResult is the result of resources/directory/read: the
// direct children of a folder, folders with DirectoryMIMEType.
type DirectoryReadResult struct {
	Meta       mcp.Meta        `json:"_meta,omitzero"`
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
	ResultType string          `json:"resultType,omitempty"`
}
