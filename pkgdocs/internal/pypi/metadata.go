package pypi

import (
	"regexp"
	"strconv"
	"strings"
)

// Metadata is the core metadata of a distribution (a wheel's METADATA or
// an sdist's PKG-INFO): RFC 822-style headers and, from metadata 2.1 on,
// the long description as the body.
type Metadata struct {
	Name                   string
	Version                string
	Summary                string
	RequiresPython         string
	License                string
	DescriptionContentType string
	Description            string
	ProjectURLs            []string // "Label, URL"
	HomePage               string
}

// ParseMetadata reads core metadata. It never fails; missing fields stay
// empty.
func ParseMetadata(data []byte) Metadata {
	var m Metadata
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	head, body, _ := strings.Cut(text, "\n\n")
	var key string
	var val strings.Builder
	commit := func() {
		if key == "" {
			return
		}
		v := val.String()
		switch strings.ToLower(key) {
		case "name":
			m.Name = strings.TrimSpace(v)
		case "version":
			m.Version = strings.TrimSpace(v)
		case "summary":
			m.Summary = strings.TrimSpace(v)
		case "requires-python":
			m.RequiresPython = strings.TrimSpace(v)
		case "license", "license-expression":
			if m.License == "" || strings.EqualFold(key, "license-expression") {
				m.License = strings.TrimSpace(v)
			}
		case "description-content-type":
			m.DescriptionContentType = strings.TrimSpace(v)
		case "description":
			m.Description = legacyDescription(v)
		case "project-url":
			m.ProjectURLs = append(m.ProjectURLs, strings.TrimSpace(v))
		case "home-page":
			m.HomePage = strings.TrimSpace(v)
		}
		key = ""
		val.Reset()
	}
	for _, line := range strings.Split(head, "\n") {
		if line != "" && (line[0] == ' ' || line[0] == '\t') && key != "" {
			val.WriteString("\n" + line)
			continue
		}
		commit()
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.TrimSpace(k)
		val.WriteString(strings.TrimPrefix(v, " "))
	}
	commit()
	if b := strings.TrimSpace(body); b != "" && m.Description == "" {
		m.Description = b
	}
	if len(m.License) > 200 { // some put the whole license text here
		m.License = ""
	}
	return m
}

// legacyDescription undoes the continuation-line folding of a Description
// header: 8 spaces and a '|' (or plain indentation) before each line.
func legacyDescription(v string) string {
	lines := strings.Split(v, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(strings.TrimPrefix(lines[i], "        "), "|")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// pyVersion is a PEP 440 version.
type pyVersion struct {
	epoch   int
	release []int
	preKind int // 0 none, 1 a, 2 b, 3 rc
	pre     int
	post    int // -1 when absent
	dev     int // -1 when absent
}

var pep440RE = regexp.MustCompile(`(?i)^\s*v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?\s*$`)

// parseVersion parses a PEP 440 version.
func parseVersion(s string) (pyVersion, bool) {
	m := pep440RE.FindStringSubmatch(s)
	if m == nil {
		return pyVersion{}, false
	}
	num := func(x string) int {
		n, err := strconv.Atoi(x)
		if err != nil {
			return 0
		}
		return n
	}
	v := pyVersion{epoch: num(m[1]), post: -1, dev: -1}
	for _, p := range strings.Split(m[2], ".") {
		v.release = append(v.release, num(p))
	}
	switch strings.ToLower(m[3]) {
	case "a", "alpha":
		v.preKind = 1
	case "b", "beta":
		v.preKind = 2
	case "c", "rc", "pre", "preview":
		v.preKind = 3
	}
	v.pre = num(m[4])
	switch {
	case m[5] != "":
		v.post = num(m[5])
	case m[6] != "":
		v.post = num(m[7])
	}
	if m[8] != "" {
		v.dev = num(m[9])
	}
	return v, true
}

// prerelease reports an alpha, beta, rc or dev version.
func (v pyVersion) prerelease() bool { return v.preKind != 0 || v.dev >= 0 }

// compareVersions orders PEP 440 versions: dev releases before
// pre-releases before the release before post-releases.
func compareVersions(a, b pyVersion) int {
	if c := cmpInt(a.epoch, b.epoch); c != 0 {
		return c
	}
	for i := 0; i < max(len(a.release), len(b.release)); i++ {
		if c := cmpInt(at(a.release, i), at(b.release, i)); c != 0 {
			return c
		}
	}
	if c := cmpInt(phase(a), phase(b)); c != 0 {
		return c
	}
	if a.preKind != 0 {
		if c := cmpInt(a.preKind, b.preKind); c != 0 {
			return c
		}
		if c := cmpInt(a.pre, b.pre); c != 0 {
			return c
		}
	}
	if c := cmpInt(a.post, b.post); c != 0 {
		return c
	}
	return cmpInt(devKey(a), devKey(b))
}

// phase ranks a bare dev release (1.0.dev1) below pre-releases, and those
// below the release.
func phase(v pyVersion) int {
	switch {
	case v.preKind == 0 && v.post < 0 && v.dev >= 0:
		return 0
	case v.preKind != 0:
		return 1
	}
	return 2
}

func devKey(v pyVersion) int {
	if v.dev < 0 {
		return int(^uint(0) >> 1)
	}
	return v.dev
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sameVersion reports whether two version strings are equal under PEP 440
// (1.0 == 1.0.0 == v1.0).
func sameVersion(a, b string) bool {
	va, ok1 := parseVersion(a)
	vb, ok2 := parseVersion(b)
	if !ok1 || !ok2 {
		return a == b
	}
	return compareVersions(va, vb) == 0
}
