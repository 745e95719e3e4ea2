package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Limits on what a Catalog serves, from the extension's interoperability
// limits.
const (
	// DefaultMaxFilesPerSkill is the most files one skill may have,
	// SKILL.md included.
	DefaultMaxFilesPerSkill = 512
	// DefaultMaxSkillBytes is the most bytes the files of one skill may
	// add up to.
	DefaultMaxSkillBytes = 16 << 20
	// DefaultMaxSkills is the most skills one catalog may hold.
	DefaultMaxSkills = 10000
)

// ErrCatalog reports a folder that cannot be served as a catalog of
// skills; the message says which skill and why.
var ErrCatalog = errors.New("skills: invalid catalog")

// CatalogOptions are options of NewCatalog; nil means defaults.
type CatalogOptions struct {
	// MaxFilesPerSkill, MaxSkillBytes and MaxSkills bound the catalog;
	// zero means the defaults.
	MaxFilesPerSkill int
	MaxSkillBytes    int64
	MaxSkills        int
}

// A Catalog is a set of skills read once from a file system: each folder
// that holds a SKILL.md is a skill, named after the folder, with every
// file below it (but those of skills nested inside) in its manifest.
// A Catalog does not change after NewCatalog; it is safe for concurrent
// use.
type Catalog struct {
	skills []*skill          // by URI
	byURI  map[string]*skill // SKILL.md URI -> skill
	files  map[string]*file  // file URI -> file
	dirs   map[string][]*mcpChild
}

// skill is one skill of a catalog.
type skill struct {
	dir   string // the skill's folder, slash-separated, relative to the root
	entry Entry
}

// file is one served file.
type file struct {
	uri, mimeType, name string
	data                []byte
	text                bool
	skill               *skill
}

// mcpChild is one child in a folder listing.
type mcpChild struct {
	uri, name, mimeType string
	size                int64
	dir                 bool
}

// skillName is the Agent Skills naming rule: 1 to 64 lowercase letters,
// digits and hyphens, no leading, trailing or doubled hyphen.
var skillName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`)

// NewCatalog reads every skill in fsys. It returns an error wrapping
// ErrCatalog for a skill that breaks the extension's rules: a SKILL.md
// without name and description in its frontmatter, a name that differs
// from the folder's or breaks the naming rules, a skill over the limits.
func NewCatalog(fsys fs.FS, opts *CatalogOptions) (*Catalog, error) {
	o := CatalogOptions{}
	if opts != nil {
		o = *opts
	}
	o.MaxFilesPerSkill = cmp0(o.MaxFilesPerSkill, DefaultMaxFilesPerSkill)
	o.MaxSkills = cmp0(o.MaxSkills, DefaultMaxSkills)
	if o.MaxSkillBytes <= 0 {
		o.MaxSkillBytes = DefaultMaxSkillBytes
	}
	var dirs []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == SkillFile && d.Type().IsRegular() {
			if dir := path.Dir(p); dir != "." {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCatalog, err)
	}
	if len(dirs) > o.MaxSkills {
		return nil, fmt.Errorf("%w: %d skills, more than %d", ErrCatalog, len(dirs), o.MaxSkills)
	}
	c := &Catalog{byURI: make(map[string]*skill), files: make(map[string]*file), dirs: make(map[string][]*mcpChild)}
	for _, dir := range dirs {
		if err := c.addSkill(fsys, dir, dirs, o); err != nil {
			return nil, err
		}
	}
	sort.Slice(c.skills, func(i, j int) bool { return c.skills[i].entry.URI < c.skills[j].entry.URI })
	return c, nil
}

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// addSkill reads the skill in dir; others are every skill folder, whose
// files belong to them and not to dir.
func (c *Catalog) addSkill(fsys fs.FS, dir string, others []string, o CatalogOptions) error {
	s := &skill{dir: dir}
	base := URIScheme + dir
	s.entry.URI = base + "/" + SkillFile
	name := path.Base(dir)
	if !skillName.MatchString(name) {
		return fmt.Errorf("%w: %s: the name %q breaks the naming rules (1-64 lowercase letters, digits and single hyphens)", ErrCatalog, dir, name)
	}
	var total int64
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && slices.Contains(others, p) {
				return fs.SkipDir // a nested skill of its own
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // links and devices are not served
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		total += int64(len(data))
		if len(s.entry.Resources) >= o.MaxFilesPerSkill || total > o.MaxSkillBytes {
			return fmt.Errorf("%w: %s: more than %d files or %d bytes", ErrCatalog, dir, o.MaxFilesPerSkill, o.MaxSkillBytes)
		}
		f := c.addFile(s, p, data)
		sum := sha256.Sum256(data)
		s.entry.Resources = append(s.entry.Resources, File{URI: f.uri, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))})
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrCatalog) {
			return err
		}
		return fmt.Errorf("%w: %s: %v", ErrCatalog, dir, err)
	}
	md := c.files[s.entry.URI]
	fm, err := ParseFrontmatter(md.data)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrCatalog, dir, err)
	}
	fmName, _ := fm["name"].(string)
	desc, _ := fm["description"].(string)
	switch {
	case fmName == "" || desc == "":
		return fmt.Errorf("%w: %s: the frontmatter needs a name and a description", ErrCatalog, dir)
	case fmName != name:
		return fmt.Errorf("%w: %s: the frontmatter names %q, not the folder's name %q", ErrCatalog, dir, fmName, name)
	}
	md.mimeType, md.name = SkillMIMEType, fmName
	s.entry.Frontmatter = fm
	sort.Slice(s.entry.Resources, func(i, j int) bool { return s.entry.Resources[i].URI < s.entry.Resources[j].URI })
	c.skills = append(c.skills, s)
	c.byURI[s.entry.URI] = s
	return nil
}

// addFile records the file at p of skill s and its place in the folder
// listings.
func (c *Catalog) addFile(s *skill, p string, data []byte) *file {
	f := &file{uri: URIScheme + p, name: path.Base(p), data: data, skill: s, mimeType: mimeTypeOf(p, data)}
	f.text = utf8.Valid(data) && !strings.HasPrefix(f.mimeType, "image/") && f.mimeType != "application/octet-stream"
	c.files[f.uri] = f
	c.addChild(path.Dir(p), &mcpChild{uri: f.uri, name: f.name, mimeType: f.mimeType, size: int64(len(data))})
	for d := path.Dir(p); d != s.dir && d != "." && d != "/"; d = path.Dir(d) {
		c.addChild(path.Dir(d), &mcpChild{uri: URIScheme + d, name: path.Base(d), mimeType: DirectoryMIMEType, dir: true})
	}
	return f
}

// addChild lists child in folder dir once.
func (c *Catalog) addChild(dir string, child *mcpChild) {
	key := URIScheme + dir
	if slices.ContainsFunc(c.dirs[key], func(x *mcpChild) bool { return x.uri == child.uri }) {
		return
	}
	c.dirs[key] = append(c.dirs[key], child)
}

// mimeTypeOf guesses a file's media type from its name, then its bytes.
func mimeTypeOf(p string, data []byte) string {
	if path.Base(p) == SkillFile || strings.EqualFold(path.Ext(p), ".md") {
		return SkillMIMEType
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		t, _, _ = strings.Cut(t, ";")
		return t
	}
	if utf8.Valid(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// Entries returns the catalog's skills, ordered by URI.
func (c *Catalog) Entries() []Entry {
	out := make([]Entry, len(c.skills))
	for i, s := range c.skills {
		out[i] = s.entry
	}
	return out
}
