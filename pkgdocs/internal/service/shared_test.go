package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

const sharedTestKey = "npm\x00express\x005.1.0\x00"

func sharedPackage() *model.Package {
	return &model.Package{Name: "express", Version: "5.1.0", Ecosystem: model.NPM, Registry: "registry.npmjs.org",
		Symbols: []model.Symbol{{Name: "express.json", Kind: "function", Signature: "json(): Handler"}}}
}

// TestDecodeShared: what another process stored is taken only when it is
// exactly what this version writes for the key asked.
func TestDecodeShared(t *testing.T) {
	good, err := encodeShared(&sharedValue{Key: sharedTestKey, Package: sharedPackage()})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.TrimPrefix(string(good), sharedMagic)
	local := sharedPackage()
	local.Registry = "local module cache"
	localValue, _ := encodeShared(&sharedValue{Key: sharedTestKey, Package: local})
	python := sharedPackage()
	python.Ecosystem = model.Python
	pythonValue, _ := encodeShared(&sharedValue{Key: sharedTestKey, Package: python})
	tests := []struct {
		name string
		data string
		ok   bool
	}{
		{"as written", string(good), true},
		{"not found", sharedMagic + `{"key":"` + strings.ReplaceAll(sharedTestKey, "\x00", `\u0000`) + `","notFound":"no such package"}`, true},
		{"no header", body, false},
		{"older header", "pkgdocs-shared-v0\n" + body, false},
		{"another key", strings.Replace(string(good), "express", "expresso", 1), false},
		{"duplicate member", sharedMagic + `{"key":"x","key":"` + strings.ReplaceAll(sharedTestKey, "\x00", `\u0000`) + `","notFound":"x"}`, false},
		{"member in other case", sharedMagic + `{"Key":"` + strings.ReplaceAll(sharedTestKey, "\x00", `\u0000`) + `","notFound":"x"}`, false},
		{"neither", sharedMagic + `{"key":"` + strings.ReplaceAll(sharedTestKey, "\x00", `\u0000`) + `"}`, false},
		{"both", strings.Replace(string(good), `"key"`, `"notFound":"x","key"`, 1), false},
		{"long not-found message", sharedMagic + `{"key":"` + strings.ReplaceAll(sharedTestKey, "\x00", `\u0000`) + `","notFound":"` + strings.Repeat("x", maxSharedNotFound+1) + `"}`, false},
		{"read from a local installation", string(localValue), false},
		{"another ecosystem", string(pythonValue), false},
		{"invalid UTF-8", strings.Replace(string(good), "json()", "json(\xff)", 1), false},
		{"truncated", string(good[:len(good)-2]), false},
		{"too deep", sharedMagic + strings.Repeat("[", 200), false},
	}
	for _, tt := range tests {
		v, err := decodeShared(sharedTestKey, []byte(tt.data))
		if (err == nil) != tt.ok {
			t.Errorf("%s: %+v, %v; want ok=%v", tt.name, v, err, tt.ok)
		}
		if err != nil && !errors.Is(err, errBadShared) {
			t.Errorf("%s: %v does not wrap errBadShared", tt.name, err)
		}
	}
}

// FuzzDecodeShared: any bytes decode without panicking, and a value that
// decodes is one this version would write for the key.
func FuzzDecodeShared(f *testing.F) {
	good, _ := encodeShared(&sharedValue{Key: sharedTestKey, Package: sharedPackage()})
	f.Add(good)
	notFound, _ := encodeShared(&sharedValue{Key: sharedTestKey, NotFound: "no such package"})
	f.Add(notFound)
	f.Add([]byte(sharedMagic + `{"key":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeShared(sharedTestKey, data)
		if err != nil {
			return
		}
		if v.Key != sharedTestKey || (v.Package == nil) == (v.NotFound == "") {
			t.Fatalf("accepted %+v", v)
		}
		again, err := encodeShared(v)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeShared(sharedTestKey, again); err != nil {
			t.Fatalf("re-encoded value refused: %v", err)
		}
	})
}

// TestTruncateUTF8 keeps whole characters.
func TestTruncateUTF8(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"aé", 2, "a"},
		{"éé", 3, "é"},
	}
	for _, tt := range tests {
		if got := truncateUTF8(tt.in, tt.n); got != tt.want {
			t.Errorf("truncateUTF8(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// mapStore is a shared.Store in a map that records expiries and counts
// lookups; Once calls fetch at once.
type mapStore struct {
	vals map[string][]byte
	ttls map[string]time.Duration
	gets int
}

func (m *mapStore) Get(_ context.Context, key string) ([]byte, error) {
	m.gets++
	return m.vals[key], nil
}

func (m *mapStore) Set(_ context.Context, key string, val []byte, ttl time.Duration) error {
	m.vals[key], m.ttls[key] = val, ttl
	return nil
}

func (m *mapStore) Once(ctx context.Context, _ string, _ func(context.Context) bool, fetch func(context.Context)) error {
	fetch(ctx)
	return nil
}

// TestFetchShared: what an instance keeps for the others, and for how
// long: packages read from a registry and not-found answers; never
// transient failures, packages read from this machine's files, requests
// naming a project, or an offline instance's not-found answers.
func TestFetchShared(t *testing.T) {
	local := sharedPackage()
	local.Registry = "local module cache"
	partial := sharedPackage()
	partial.Partial = true
	notFound := fmt.Errorf("package express: %w", fetch.ErrNotFound)
	upstream := fmt.Errorf("registry: %w", fetch.ErrUpstream)
	tests := []struct {
		name    string
		exact   bool
		share   bool
		offline bool
		pkg     *model.Package
		err     error
		wantTTL time.Duration // 0: nothing kept
	}{
		{"exact version", true, true, false, sharedPackage(), nil, sharedExactTTL},
		{"resolved version", false, true, false, sharedPackage(), nil, sharedResolvedTTL},
		{"not found", false, true, false, nil, notFound, sharedNotFoundTTL},
		{"not found offline", false, true, true, nil, notFound, 0},
		{"registry failing", false, true, false, nil, upstream, 0},
		{"read from the module cache", true, true, false, local, nil, 0},
		{"partial", true, true, false, partial, nil, 0},
		{"project request", true, false, false, sharedPackage(), nil, 0},
	}
	for _, tt := range tests {
		store := &mapStore{vals: map[string][]byte{}, ttls: map[string]time.Duration{}}
		s := &Service{shared: store, cfg: Config{Offline: tt.offline}}
		calls := 0
		fn := func(context.Context) (*model.Package, error) { calls++; return tt.pkg, tt.err }
		p, err := s.fetchShared(t.Context(), sharedTestKey, tt.exact, tt.share, fn)
		if calls != 1 || p != nil && p.Name != "express" || !errors.Is(err, tt.err) {
			t.Errorf("%s: %d fetches, %v, %v", tt.name, calls, p, err)
		}
		if got := store.ttls[sharedTestKey]; got != tt.wantTTL {
			t.Errorf("%s: kept for %v, want %v", tt.name, got, tt.wantTTL)
		}
		if tt.wantTTL == 0 {
			continue
		}
		// A second instance answers from the store, without fetching.
		other := &Service{shared: store}
		p2, err2 := other.fetchShared(t.Context(), sharedTestKey, tt.exact, true, func(context.Context) (*model.Package, error) {
			t.Errorf("%s: the second instance fetched", tt.name)
			return nil, nil
		})
		switch {
		case tt.err != nil && (!errors.Is(err2, ErrNotFound) || err2.Error() != tt.err.Error()):
			t.Errorf("%s: second instance got %v, want the first one's not-found answer %v", tt.name, err2, tt.err)
		case tt.err == nil && (err2 != nil || p2.Name != "express" || len(p2.Symbols) != 1):
			t.Errorf("%s: second instance got %+v, %v", tt.name, p2, err2)
		}
	}
}
