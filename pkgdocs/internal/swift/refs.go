package swift

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// ErrRefs reports a malformed git reference advertisement.
var ErrRefs = errors.New("malformed git ref advertisement")

// Ref is one reference a git server advertises.
type Ref struct {
	Name string // e.g. refs/tags/1.2.0, refs/heads/main, HEAD
	SHA  string
}

// Refs is a repository's advertised references.
type Refs struct {
	List []Ref
	Head string // the commit HEAD points to
}

// ParseRefs reads the answer to GET <repo>.git/info/refs?service=git-upload-pack
// (git's smart HTTP protocol, v0/v1): pkt-lines of "<sha> <ref>", the first
// carrying capabilities after a NUL byte, framed by flush packets.
func ParseRefs(data []byte) (*Refs, error) {
	r := &Refs{}
	for len(data) > 0 {
		if len(data) < 4 {
			return nil, fmt.Errorf("%w: truncated packet length", ErrRefs)
		}
		n, err := strconv.ParseUint(string(data[:4]), 16, 16)
		if err != nil {
			return nil, fmt.Errorf("%w: bad packet length %q", ErrRefs, data[:4])
		}
		if n < 4 { // flush (0000), delimiter (0001), response end (0002)
			data = data[4:]
			continue
		}
		if int(n) > len(data) {
			return nil, fmt.Errorf("%w: packet of %d bytes, %d left", ErrRefs, n, len(data))
		}
		line := strings.TrimSuffix(string(data[4:n]), "\n")
		data = data[n:]
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "version ") {
			continue
		}
		line, _, _ = strings.Cut(line, "\x00") // capabilities
		sha, name, ok := strings.Cut(line, " ")
		if !ok || len(sha) != 40 || !isHex(sha) {
			return nil, fmt.Errorf("%w: bad ref line %q", ErrRefs, truncate(line, 80))
		}
		if name == "capabilities^{}" { // an empty repository
			continue
		}
		if name == "HEAD" {
			r.Head = sha
		}
		r.List = append(r.List, Ref{Name: name, SHA: sha})
	}
	return r, nil
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Tags returns the tag names (peeled "^{}" entries folded in).
func (r *Refs) Tags() []string {
	var out []string
	seen := map[string]bool{}
	for _, ref := range r.List {
		name, ok := strings.CutPrefix(ref.Name, "refs/tags/")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "^{}")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// Branch returns the commit of branch name.
func (r *Refs) Branch(name string) (string, bool) {
	for _, ref := range r.List {
		if ref.Name == "refs/heads/"+name {
			return ref.SHA, true
		}
	}
	return "", false
}

// FindTag returns the tag naming version: exactly, or with/without a
// leading "v".
func (r *Refs) FindTag(version string) (string, bool) {
	tags := r.Tags()
	for _, want := range []string{version, "v" + version, strings.TrimPrefix(version, "v")} {
		for _, t := range tags {
			if t == want {
				return t, true
			}
		}
	}
	return "", false
}

// semverTags returns the tags that are semantic versions, highest first.
func (r *Refs) semverTags() []string {
	type tv struct {
		tag string
		v   *semver.Version
	}
	var vs []tv
	for _, t := range r.Tags() {
		if v, err := semver.NewVersion(t); err == nil {
			vs = append(vs, tv{t, v})
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].v.GreaterThan(vs[j].v) })
	out := make([]string, len(vs))
	for i, x := range vs {
		out[i] = x.tag
	}
	return out
}

// LatestTag returns the highest release tag (pre-releases only when there
// is nothing else), or "".
func (r *Refs) LatestTag() string {
	tags := r.semverTags()
	for _, t := range tags {
		if v, _ := semver.NewVersion(t); v.Prerelease() == "" {
			return t
		}
	}
	if len(tags) > 0 {
		return tags[0]
	}
	return ""
}

// NearestTags returns up to three release tags around version.
func (r *Refs) NearestTags(version string) []string {
	tags := r.semverTags() // descending
	w, err := semver.NewVersion(version)
	if err != nil || len(tags) == 0 {
		return firstN(tags, 3)
	}
	i := sort.Search(len(tags), func(i int) bool {
		v, _ := semver.NewVersion(tags[i])
		return !v.GreaterThan(w)
	})
	start := max(0, i-1)
	return firstN(tags[start:], 3)
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
