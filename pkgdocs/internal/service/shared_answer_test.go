package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
)

// sharedQuestions are questions about every ecosystem's fixture, of each
// tool, as an agent asks them of a team server.
var sharedQuestions = []struct {
	name string
	ask  func(context.Context, *Service) (any, error)
}{
	{"npm describe", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "express"})
	}},
	{"npm describe, a symbol", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "lodash", Symbol: "debounce"})
	}},
	{"npm describe, exact version, second page", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeNPMPackage(ctx, DescribeNPMArgs{Package: "express", Version: "5.3.0", MaxTokens: 400, Page: 2})
	}},
	{"npm document, a query", func(ctx context.Context, s *Service) (any, error) {
		return s.GetNPMPackageDoc(ctx, GetNPMDocArgs{Package: "express", Query: "router"})
	}},
	{"go describe, a symbol", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "golang.org/x/mod/semver", Symbol: "Compare"})
	}},
	{"go describe", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeGoPackage(ctx, DescribeGoArgs{Package: "github.com/spf13/cobra"})
	}},
	{"python describe", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribePythonPackage(ctx, DescribeArgs{Package: "tinyhttp"})
	}},
	{"rust describe", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeRustPackage(ctx, DescribeArgs{Package: "kvstore"})
	}},
	{"swift describe", func(ctx context.Context, s *Service) (any, error) {
		return s.DescribeSwiftPackage(ctx, DescribeArgs{Package: "acme/swift-greeter"})
	}},
	{"search python", func(ctx context.Context, s *Service) (any, error) {
		return s.SearchPackageDocs(ctx, SearchArgs{Package: "tinyhttp", Language: "python", Query: "get"})
	}},
	{"search rust", func(ctx context.Context, s *Service) (any, error) {
		return s.SearchPackageDocs(ctx, SearchArgs{Package: "kvstore", Language: "rust", Query: "insert"})
	}},
}

// sharedInstance is another instance of a team server on store: a new
// service, its memory empty, whose registry requests are counted.
func sharedInstance(t *testing.T, cfg *Config, store *mapStore) (*Service, *atomic.Int64) {
	t.Helper()
	var fetches atomic.Int64
	c := *cfg
	c.Shared = store
	c.Client = fetch.New(&fetch.Options{Retries: -1, CountRequests: func(string, string) { fetches.Add(1) }})
	s, err := New(&c)
	if err != nil {
		t.Fatal(err)
	}
	return s, &fetches
}

// withoutAnswers copies store without its rendered answers.
func withoutAnswers(store *mapStore) *mapStore {
	c := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
	for k, v := range store.vals {
		if !strings.HasPrefix(k, "answer\x00") {
			c.vals[k], c.ttls[k] = v, store.ttls[k]
		}
	}
	return c
}

// TestAnswerFromSharedIsIdentical: an instance that never fetched the
// package answers from the rendered entry another instance stored,
// without a registry request and without decoding the package, and its
// answer is byte for byte the one it renders itself from the package
// entry alone.
func TestAnswerFromSharedIsIdentical(t *testing.T) {
	cfg := evalConfig(t, false)
	for _, q := range sharedQuestions {
		t.Run(q.name, func(t *testing.T) {
			store := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
			first, _ := sharedInstance(t, cfg, store)
			if _, err := q.ask(t.Context(), first); err != nil {
				t.Fatal(err)
			}
			answers := 0
			for k := range store.vals {
				if strings.HasPrefix(k, "answer\x00") {
					answers++
				}
			}
			if answers != 1 {
				t.Fatalf("the first instance stored %d rendered answers, want 1", answers)
			}

			second, fetches := sharedInstance(t, cfg, store)
			got, err := q.ask(t.Context(), second)
			if err != nil {
				t.Fatal(err)
			}
			if n := fetches.Load(); n != 0 {
				t.Errorf("the second instance asked the registry %d times", n)
			}
			if st := second.SharedStats(); st != (SharedStats{Answers: 1}) {
				t.Errorf("second instance: %+v, want one answer from a rendered entry and no package decoded", st)
			}

			third, fetches := sharedInstance(t, cfg, withoutAnswers(store))
			want, err := q.ask(t.Context(), third)
			if err != nil {
				t.Fatal(err)
			}
			if st := third.SharedStats(); fetches.Load() != 0 || st != (SharedStats{Packages: 1}) {
				t.Errorf("instance without the rendered entry: %d registry requests, %+v; want none and one package decoded", fetches.Load(), st)
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("answer from the rendered entry\n%s\ndiffers from the one rendered from the package\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// TestSharedAnswerExpiry: a rendered answer is kept as long as the
// package entry of its request, and is found through the version the
// request resolves to: once the store says the request resolves to
// another version, the old answer is no longer served.
func TestSharedAnswerExpiry(t *testing.T) {
	cfg := evalConfig(t, false)
	for _, args := range []DescribeNPMArgs{{Package: "express"}, {Package: "express", Version: "5.3.0"}} {
		store := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
		first, _ := sharedInstance(t, cfg, store)
		if _, err := first.DescribeNPMPackage(t.Context(), args); err != nil {
			t.Fatal(err)
		}
		pkgKey := "npm\x00express\x00" + args.Version + "\x00"
		want := store.ttls[pkgKey]
		if want == 0 {
			t.Fatalf("%+v: no package entry", args)
		}
		if got := store.ttls[resolvedKey(pkgKey)]; got != want {
			t.Errorf("%+v: resolved version kept for %v, want %v as the package", args, got, want)
		}
		for k, ttl := range store.ttls {
			if strings.HasPrefix(k, "answer\x00") && ttl != want {
				t.Errorf("%+v: answer kept for %v, want %v as the package", args, ttl, want)
			}
		}

		store.vals[resolvedKey(pkgKey)] = encodeResolved("5.2.0")
		second, _ := sharedInstance(t, cfg, store)
		res, err := second.DescribeNPMPackage(t.Context(), args)
		if err != nil {
			t.Fatal(err)
		}
		if st := second.SharedStats(); st.Answers != 0 || res.Version != "5.3.0" {
			t.Errorf("%+v: after the request resolved to another version: %+v, version %s; want the package's answer", args, st, res.Version)
		}
	}
}

// TestSharedAnswerNotKept: answers about a project's packages are neither
// looked up nor kept, and an instance whose memory holds the package
// answers from it without asking the store.
func TestSharedAnswerNotKept(t *testing.T) {
	cfg := evalConfig(t, false)
	store := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
	s, _ := sharedInstance(t, cfg, store)
	if _, err := s.DescribeNPMPackage(t.Context(), DescribeNPMArgs{Package: "express", ProjectPath: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	for k := range store.vals {
		t.Errorf("a project's question stored %q", k)
	}

	if _, err := s.DescribeNPMPackage(t.Context(), DescribeNPMArgs{Package: "express"}); err != nil {
		t.Fatal(err)
	}
	gets := store.gets
	if _, err := s.DescribeNPMPackage(t.Context(), DescribeNPMArgs{Package: "express", Symbol: "json"}); err != nil && !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if store.gets != gets {
		t.Errorf("an instance holding the package looked up the store %d times", store.gets-gets)
	}
}

// TestDecodeAnswer: what another process stored is served only when it
// is what this version writes for the key and version asked, and clean.
func TestDecodeAnswer(t *testing.T) {
	const key, version = "answer\x00k", "5.1.0"
	doc := func(edit func(*DocResult)) string {
		d := &DocResult{Provenance: Provenance{Name: "express", Version: version, Ecosystem: "npm", Registry: "registry.npmjs.org"},
			Markdown: "# express@5.1.0\n", Tokens: 5, TotalTokens: 5, Page: 1, Pages: 1}
		if edit != nil {
			edit(d)
		}
		data, err := json.Marshal(&sharedAnswer[DocResult]{Key: key, Answer: d})
		if err != nil {
			t.Fatal(err)
		}
		return answerMagic + string(data)
	}
	good := doc(nil)
	tests := []struct {
		name string
		data string
		ok   bool
	}{
		{"as written", good, true},
		{"no header", strings.TrimPrefix(good, answerMagic), false},
		{"older header", "pkgdocs-answer-v0\n" + strings.TrimPrefix(good, answerMagic), false},
		{"another key", strings.Replace(good, `"answer\u0000k"`, `"answer\u0000x"`, 1), false},
		{"no answer", answerMagic + `{"key":"answer\u0000k"}`, false},
		{"duplicate member", strings.Replace(good, `"key"`, `"key":"x","key"`, 1), false},
		{"another version", doc(func(d *DocResult) { d.Version = "5.0.0" }), false},
		{"stale", doc(func(d *DocResult) { d.Stale = true }), false},
		{"page beyond the last", doc(func(d *DocResult) { d.Page = 2 }), false},
		{"hidden character in the markdown", doc(func(d *DocResult) { d.Markdown += "ignore\u200bthis" }), false},
		{"bidi control in the provenance", doc(func(d *DocResult) { d.Origin = "npm\u202e" }), false},
		{"invalid UTF-8", strings.Replace(good, "express@", "express\xff@", 1), false},
		{"truncated", good[:len(good)-2], false},
		{"too large", doc(func(d *DocResult) { d.Markdown = strings.Repeat("x", maxSharedAnswer) }), false},
		{"too deep", answerMagic + strings.Repeat("[", 200), false},
	}
	for _, tt := range tests {
		a, err := decodeAnswer[DocResult](key, version, []byte(tt.data))
		if (err == nil) != tt.ok {
			t.Errorf("%s: %+v, %v; want ok=%v", tt.name, a, err, tt.ok)
		}
		if err != nil && !errors.Is(err, errBadShared) {
			t.Errorf("%s: %v does not wrap errBadShared", tt.name, err)
		}
	}
	if _, err := encodeAnswer(key, version, &DocResult{Provenance: Provenance{Version: version}, Markdown: "a\u200bb", Page: 1, Pages: 1}); err == nil {
		t.Error("an answer with hidden characters was encoded for sharing")
	}
}

// FuzzDecodeAnswer: any bytes decode without panicking, and an answer
// that decodes is one this version would write for the key and version.
func FuzzDecodeAnswer(f *testing.F) {
	const key, version = "answer\x00k", "1.0.0"
	doc, _ := encodeAnswer(key, version, &DocResult{Provenance: Provenance{Name: "x", Version: version}, Markdown: "# x\n", Page: 1, Pages: 1})
	f.Add(doc)
	f.Add([]byte(answerMagic + `{"key":"answer\u0000k","answer":{"page":1,"pages":1,"version":"1.0.0"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := decodeAnswer[DocResult](key, version, data)
		if err != nil {
			return
		}
		again, err := encodeAnswer(key, version, a)
		if err != nil {
			t.Fatalf("decoded answer refused for encoding: %v", err)
		}
		if _, err := decodeAnswer[DocResult](key, version, again); err != nil {
			t.Fatalf("re-encoded answer refused: %v", err)
		}
	})
}

// TestDecodeResolved: a resolved version is one bounded line of text.
func TestDecodeResolved(t *testing.T) {
	tests := []struct {
		data string
		want string // "": refused
	}{
		{resolvedMagic + "5.1.0", "5.1.0"},
		{resolvedMagic + "v1.2.3+incompatible", "v1.2.3+incompatible"},
		{"5.1.0", ""},
		{resolvedMagic, ""},
		{resolvedMagic + "5.1.0\n", ""},
		{resolvedMagic + "5.1\u200b.0", ""},
		{resolvedMagic + "5.\xff", ""},
		{resolvedMagic + strings.Repeat("1", maxResolvedVersion+1), ""},
	}
	for _, tt := range tests {
		got, err := decodeResolved([]byte(tt.data))
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("decodeResolved(%q) = %q, %v; want %q", tt.data, got, err, tt.want)
		}
	}
}

// TestSharedAnswerFromDiskCache: an instance that read an exact version
// from its disk cache, so that no package entry or resolved version was
// stored, still shares its answer, and another instance answers with it
// without asking the registry.
func TestSharedAnswerFromDiskCache(t *testing.T) {
	cfg := evalConfig(t, false)
	cfg.CacheDir = t.TempDir()
	args := DescribeNPMArgs{Package: "express", Version: "5.3.0"}
	filler, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := filler.DescribeNPMPackage(t.Context(), args); err != nil {
		t.Fatal(err)
	}

	store := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
	fromDisk, fetches := sharedInstance(t, cfg, store)
	want, err := fromDisk.DescribeNPMPackage(t.Context(), args)
	if err != nil || fetches.Load() != 0 {
		t.Fatalf("the instance with the disk cache: %v, %d registry requests", err, fetches.Load())
	}

	noDisk := *cfg
	noDisk.CacheDir = ""
	other, fetches := sharedInstance(t, &noDisk, store)
	got, err := other.DescribeNPMPackage(t.Context(), args)
	if err != nil {
		t.Fatal(err)
	}
	if st := other.SharedStats(); fetches.Load() != 0 || st != (SharedStats{Answers: 1}) {
		t.Errorf("the other instance: %d registry requests, %+v; want none and the answer from the rendered entry", fetches.Load(), st)
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("answer from the rendered entry differs from the disk-cached instance's:\n%s\n%s", gotJSON, wantJSON)
	}
}

// downStore is a shared store that is down: every call fails.
type downStore struct{ sets []string }

func (d *downStore) Get(context.Context, string) ([]byte, error) { return nil, shared.ErrUnavailable }

func (d *downStore) Set(_ context.Context, key string, _ []byte, _ time.Duration) error {
	d.sets = append(d.sets, key)
	return shared.ErrUnavailable
}

func (d *downStore) Once(context.Context, string, func(context.Context) bool, func(context.Context)) error {
	return shared.ErrUnavailable
}

// TestSharedAnswerStoreDown: with the store down, an instance answers from
// the registry and sends nothing to the store: no resolved version and no
// rendered answer go to a store that failed the lookup.
func TestSharedAnswerStoreDown(t *testing.T) {
	cfg := evalConfig(t, false)
	store := &downStore{}
	cfg.Shared = store
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.DescribeNPMPackage(t.Context(), DescribeNPMArgs{Package: "express", Version: "5.3.0"})
	if err != nil || res.Version != "5.3.0" {
		t.Fatalf("with the store down: %v", err)
	}
	if len(store.sets) != 0 {
		t.Errorf("with the store down, %d values were sent to it: %q", len(store.sets), store.sets)
	}
}
