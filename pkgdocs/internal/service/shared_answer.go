package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/gomcp/sdk/pkgdocs/internal/untrusted"
	"github.com/gomcp/sdk/strictjson"
)

// Rendered answers in the shared store. An instance that renders an answer
// from a shareable package keeps it in the store too, under a digest of
// everything that determines it; another instance asked the same question
// answers with it without loading the package, which for a large one
// (strict decoding, cleaning, indexing) costs far more than the answer.
// The entry is found through the version the request resolves to, which
// the instance that read the package keeps beside it (resolvedKey), so an
// answer never outlives the resolution it was rendered for.
const (
	answerMagic        = "pkgdocs-answer-v1\n"
	resolvedMagic      = "pkgdocs-resolved-v1\n"
	maxSharedAnswer    = 256 << 10 // bytes of an encoded answer: 8000 tokens a page leave room
	maxResolvedVersion = 256       // bytes of a resolved version
)

// rendererVersion names this build's renderer: the answer format and the
// build's module version and VCS revision, so that instances of different
// builds, which may render differently, never take each other's answers.
var rendererVersion = sync.OnceValue(func() string {
	v := "render-v1"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v += " " + bi.Main.Path + "@" + bi.Main.Version
		for _, st := range bi.Settings {
			if st.Key == "vcs.revision" || st.Key == "vcs.modified" {
				v += " " + st.Key + "=" + st.Value
			}
		}
	}
	return v
})

// resolvedKey is the shared key of the version the request key resolves to.
func resolvedKey(key string) string { return "resolved\x00" + key }

// encodeResolved lays out a resolved version.
func encodeResolved(version string) []byte { return []byte(resolvedMagic + version) }

// decodeResolved reads a resolved version another process stored: a
// bounded, valid UTF-8, single-line version without hidden characters.
func decodeResolved(data []byte) (string, error) {
	body, ok := bytes.CutPrefix(data, []byte(resolvedMagic))
	switch {
	case !ok:
		return "", fmt.Errorf("%w: resolved version without its header", errBadShared)
	case len(body) == 0 || len(body) > maxResolvedVersion || !utf8.Valid(body):
		return "", fmt.Errorf("%w: resolved version of %d bytes or not UTF-8", errBadShared, len(body))
	}
	v := string(body)
	if untrusted.Line(v) != v {
		return "", fmt.Errorf("%w: resolved version with hidden characters or line breaks", errBadShared)
	}
	return v, nil
}

// answerKey is the shared key of the answer of tool to question (its
// arguments, page and token budget included) about the package r names,
// resolved to version, rendered by this build.
func answerKey(tool string, r *pkgRequest, version string, question any) (string, error) {
	q, err := json.Marshal(question)
	if err != nil {
		return "", fmt.Errorf("answer key: %w", err)
	}
	h := sha256.New()
	for _, f := range []string{rendererVersion(), tool, r.key, version, string(q)} {
		h.Write([]byte(strconv.Itoa(len(f)) + ":" + f)) // lengths keep fields apart
	}
	return "answer\x00" + hex.EncodeToString(h.Sum(nil)), nil
}

// sharedAnswer is a rendered answer as the shared store holds it. Key
// repeats the store key, so that a value stored under another is refused.
type sharedAnswer[R any] struct {
	Key    string `json:"key"`
	Answer *R     `json:"answer"`
}

// encodeAnswer lays out an answer rendered for version, refusing one that
// decodeAnswer would refuse.
func encodeAnswer[R any](key, version string, a *R) ([]byte, error) {
	if err := checkAnswer(a, version); err != nil {
		return nil, err
	}
	data, err := strictjson.Marshal(&sharedAnswer[R]{Key: key, Answer: a})
	if err != nil {
		return nil, fmt.Errorf("shared answer: %w", err)
	}
	if len(answerMagic)+len(data) > maxSharedAnswer {
		return nil, fmt.Errorf("%w: answer of %d bytes", errBadShared, len(data))
	}
	return append([]byte(answerMagic), data...), nil
}

// decodeAnswer reads an answer another process stored under key for
// version. It is decoded strictly (bounded size, no duplicate or
// case-folded member names, valid UTF-8, bounded depth) and its text is
// cleaned again as untrusted (checkAnswer): an answer that cleaning would
// change is refused, so that what is served is clean and is the answer
// this instance would have rendered itself.
func decodeAnswer[R any](key, version string, data []byte) (*R, error) {
	if len(data) > maxSharedAnswer {
		return nil, fmt.Errorf("%w: answer of %d bytes", errBadShared, len(data))
	}
	body, ok := bytes.CutPrefix(data, []byte(answerMagic))
	if !ok {
		return nil, fmt.Errorf("%w: no %q header", errBadShared, "pkgdocs-answer-v1")
	}
	var v sharedAnswer[R]
	if err := strictjson.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadShared, err)
	}
	if v.Key != key {
		return nil, fmt.Errorf("%w: answer stored for another key", errBadShared)
	}
	if v.Answer == nil {
		return nil, fmt.Errorf("%w: no answer", errBadShared)
	}
	if err := checkAnswer(v.Answer, version); err != nil {
		return nil, err
	}
	return v.Answer, nil
}

// checkAnswer checks an answer for sharing: of version, not stale, a
// page within its pages, and text that untrusted.Code leaves as it is (no
// hidden characters; the package text it was rendered from was cleaned
// for its kind already, and cleaning is idempotent).
func checkAnswer(a any, version string) error {
	var p *Provenance
	var texts []string
	switch a := a.(type) {
	case *DocResult:
		if a.Page < 1 || a.Page > a.Pages || a.Tokens < 0 {
			return fmt.Errorf("%w: page %d of %d", errBadShared, a.Page, a.Pages)
		}
		p, texts = &a.Provenance, append([]string{a.Markdown}, a.Omitted...)
	case *SearchResult:
		p, texts = &a.Provenance, []string{a.Markdown, a.Query}
		for _, h := range a.Hits {
			texts = append(texts, h.Kind, h.Title, h.Package)
		}
	default:
		return fmt.Errorf("%w: answer of type %T", errBadShared, a)
	}
	if p.Version != version || p.Stale {
		return fmt.Errorf("%w: answer about version %q (stale %v), want %q", errBadShared, p.Version, p.Stale, version)
	}
	texts = append(texts, p.Name, p.Version, p.Ecosystem, p.Registry, p.Source, p.Origin, p.ResolvedFrom)
	for _, t := range texts {
		if untrusted.Code(t) != t {
			return fmt.Errorf("%w: answer holds hidden characters", errBadShared)
		}
	}
	return nil
}

// answerShared answers question, asked of tool, about the package r
// names. With a shared store and no project, when this instance's memory
// does not hold the package, the store's rendered entry is looked up
// first: found, it is the answer, and the package is not loaded.
// Otherwise answer renders it from the loaded package and, when the
// package is shareable, the rendered answer is kept in the store for the
// others, once per package entry and question, unless the store failed
// the lookup (no more round trips to a store that is down).
func answerShared[R any](ctx context.Context, s *Service, r *pkgRequest, tool string, question any, answer func(*entry) (*R, error)) (*R, error) {
	share := s.shared != nil && r.project == ""
	if share && !s.mem.Has(r.key) {
		a, ok, err := answerFromShared[R](ctx, s, r, tool, question)
		if ok {
			return a, nil
		}
		share = err == nil
	}
	e, err := s.loadRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	a, err := answer(e)
	if err != nil {
		return nil, err
	}
	if share {
		answerToShared(ctx, s, r, tool, question, e, a)
	}
	return a, nil
}

// answerFromShared looks the rendered answer up: the version r resolves
// to, then the answer for it. ok is false when the store holds nothing
// usable; err is the store's failure, if it failed.
func answerFromShared[R any](ctx context.Context, s *Service, r *pkgRequest, tool string, question any) (a *R, ok bool, err error) {
	data, err := s.shared.Get(ctx, resolvedKey(r.key))
	if err != nil || data == nil {
		return nil, false, err
	}
	version, derr := decodeResolved(data)
	if derr != nil {
		return nil, false, nil
	}
	key, kerr := answerKey(tool, r, version, question)
	if kerr != nil {
		return nil, false, nil
	}
	data, err = s.shared.Get(ctx, key)
	if err != nil || data == nil {
		return nil, false, err
	}
	a, derr = decodeAnswer[R](key, version, data)
	if derr != nil {
		return nil, false, nil
	}
	s.sharedAnswers.Add(1)
	return a, true, nil
}

// answerToShared keeps a rendered answer for the other instances, for as
// long as the package entry it was rendered from: never one rendered from
// a stale, partial or local package.
func answerToShared[R any](ctx context.Context, s *Service, r *pkgRequest, tool string, question any, e *entry, a *R) {
	if e.pkg.Stale || !shareable(e.pkg) {
		return
	}
	key, err := answerKey(tool, r, e.pkg.Version, question)
	if err != nil || !e.shareOnce(key) {
		return
	}
	if r.exact && e.shareOnce(resolvedKey(r.key)) {
		// An exact version resolves to itself for good: the lookup path is
		// kept even when this instance read the package from its disk
		// cache, and toShared never ran.
		_ = s.shared.Set(ctx, resolvedKey(r.key), encodeResolved(e.pkg.Version), sharedExactTTL)
	}
	data, err := encodeAnswer(key, e.pkg.Version, a)
	if err != nil {
		return
	}
	ttl := sharedResolvedTTL
	if r.exact {
		ttl = sharedExactTTL
	}
	_ = s.shared.Set(ctx, key, data, ttl) // best effort: Redis down
}

// maxSharedKeys bounds the answer keys an entry remembers having shared.
const maxSharedKeys = 256

// shareOnce reports whether the answer stored under key has not been
// shared from e yet, and records it as shared.
func (e *entry) shareOnce(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sharedKeys[key] {
		return false
	}
	if e.sharedKeys == nil || len(e.sharedKeys) >= maxSharedKeys {
		e.sharedKeys = map[string]bool{}
	}
	e.sharedKeys[key] = true
	return true
}
