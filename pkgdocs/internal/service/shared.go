package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
	"github.com/gomcp/sdk/pkgdocs/internal/untrusted"
	"github.com/gomcp/sdk/strictjson"
)

// How long the shared store (Config.Shared) keeps what an instance read:
// as long as memory does.
const (
	sharedExactTTL    = 24 * time.Hour   // a package of an exact version
	sharedResolvedTTL = 10 * time.Minute // a version resolved from latest, a tag or a range
	sharedNotFoundTTL = 2 * time.Minute  // a not-found answer
	maxSharedNotFound = 1024             // bytes of a not-found message kept
)

// sharedMagic starts every shared value, so that a format change or a
// foreign value is never decoded as a package.
const sharedMagic = "pkgdocs-shared-v1\n"

// sharedValue is what the shared store holds for one request key: the
// package read for it, or the message of the not-found answer the
// registry gave. Key repeats the request key, so that a value stored
// under another key is refused.
type sharedValue struct {
	Key      string         `json:"key"`
	Package  *model.Package `json:"package,omitempty"`
	NotFound string         `json:"notFound,omitempty"`
}

// encodeShared lays out a shared value.
func encodeShared(v *sharedValue) ([]byte, error) {
	data, err := strictjson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("shared value: %w", err)
	}
	return append([]byte(sharedMagic), data...), nil
}

// errBadShared reports a shared value that is not one this version of
// pkgdocs wrote for the key asked.
var errBadShared = errors.New("invalid shared value")

// decodeShared reads a value from the shared store for key. Another
// process wrote it, so it is decoded strictly (no duplicate or
// case-folded member names, valid UTF-8, bounded depth) and checked: the
// key it names, exactly one of a package or a not-found message, a
// package of the key's ecosystem with a name and version that was read
// from a registry (never a partial or local one). Its text is cleaned
// where every package's is, when it enters the cache (newEntry).
func decodeShared(key string, data []byte) (*sharedValue, error) {
	body, ok := bytes.CutPrefix(data, []byte(sharedMagic))
	if !ok {
		return nil, fmt.Errorf("%w: no %q header", errBadShared, strings.TrimSpace(sharedMagic))
	}
	var v sharedValue
	if err := strictjson.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadShared, err)
	}
	switch {
	case v.Key != key:
		return nil, fmt.Errorf("%w: stored for another key", errBadShared)
	case (v.Package == nil) == (v.NotFound == ""):
		return nil, fmt.Errorf("%w: holds neither or both of a package and a not-found answer", errBadShared)
	case len(v.NotFound) > maxSharedNotFound:
		return nil, fmt.Errorf("%w: not-found message of %d bytes", errBadShared, len(v.NotFound))
	case v.Package != nil && !shareable(v.Package):
		return nil, fmt.Errorf("%w: package is incomplete, partial or local", errBadShared)
	case v.Package != nil && v.Package.Ecosystem != ecosystemOfKey(key):
		return nil, fmt.Errorf("%w: package of ecosystem %q for a %q key", errBadShared, v.Package.Ecosystem, ecosystemOfKey(key))
	}
	return &v, nil
}

// ecosystemOfKey returns the first field of a load key ("npm", "go", ...).
func ecosystemOfKey(key string) string {
	eco, _, _ := strings.Cut(key, "\x00")
	return eco
}

// shareable reports a package other instances may answer with: named,
// complete, and read from a registry, not from this machine's files (the
// module cache, GOROOT, an installation: "local ..." registries), whose
// provenance would be wrong on another machine.
func shareable(p *model.Package) bool {
	return p.Name != "" && p.Version != "" && p.Version != "local" && p.Registry != "" &&
		!strings.HasPrefix(p.Registry, "local") && !strings.HasPrefix(p.Registry, "project") &&
		!p.Partial && !p.Stale
}

// sharedNotFoundError is a not-found answer another instance got.
type sharedNotFoundError struct{ msg string }

func (e *sharedNotFoundError) Error() string { return e.msg }
func (e *sharedNotFoundError) Unwrap() error { return ErrNotFound }

// fromShared looks key up in the shared store: the package another
// instance read, or the not-found answer it got. ok is false when the
// store holds nothing usable (nothing, a value that fails decodeShared, or
// a store that failed).
func (s *Service) fromShared(ctx context.Context, key string) (p *model.Package, notFound error, ok bool) {
	data, gerr := s.shared.Get(ctx, key)
	if gerr != nil || data == nil {
		return nil, nil, false
	}
	v, derr := decodeShared(key, data)
	if derr != nil {
		return nil, nil, false
	}
	if v.NotFound != "" {
		return nil, &sharedNotFoundError{v.NotFound}, true
	}
	s.sharedPackages.Add(1)
	return v.Package, nil, true
}

// toShared keeps what fetching key gave for the other instances: a
// shareable package, or a not-found answer. Other failures are not kept.
func (s *Service) toShared(ctx context.Context, key string, exact bool, p *model.Package, err error) {
	v := &sharedValue{Key: key}
	ttl := sharedResolvedTTL
	switch {
	case err == nil && p != nil && shareable(p):
		v.Package = p
		if exact {
			ttl = sharedExactTTL
		}
	case err != nil && errors.Is(classify(err), ErrNotFound) && !s.cfg.Offline: // offline, "not found" means "not here"
		v.NotFound = truncateUTF8(untrusted.Code(err.Error()), maxSharedNotFound)
		ttl = sharedNotFoundTTL
	default:
		return
	}
	data, eerr := encodeShared(v)
	if eerr != nil {
		return
	}
	serr := s.shared.Set(ctx, key, data, ttl) // best effort: too large or Redis down
	if v.Package != nil && (serr == nil || errors.Is(serr, shared.ErrTooLarge)) {
		// The version the key resolves to, for as long as the package:
		// rendered answers are found through it (answerFromShared), even
		// when the package itself was too large to share.
		_ = s.shared.Set(ctx, resolvedKey(key), encodeResolved(v.Package.Version), ttl)
	}
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fetchShared returns the package for key: from the shared store when
// another instance read it, else from fn, called by one instance at a time
// across all of them (the others wait and then answer from the store).
// Without a shared store, or for a request that names a project
// directory (which is this machine's), it is fn.
func (s *Service) fetchShared(ctx context.Context, key string, exact, share bool, fn func(context.Context) (*model.Package, error)) (*model.Package, error) {
	if s.shared == nil || !share {
		return fn(ctx)
	}
	if p, err, ok := s.fromShared(ctx, key); ok {
		return p, err
	}
	var (
		p   *model.Package
		err error
		got bool
	)
	// An error of Once says the store failed (or the wait ran out); what
	// matters is whether anyone answered for this instance before it did.
	_ = s.shared.Once(ctx, key,
		func(ctx context.Context) bool {
			p, err, got = s.fromShared(ctx, key)
			return got
		},
		func(ctx context.Context) {
			p, err = fn(ctx)
			got = true
			if err == nil {
				p = untrusted.Package(p) // what others read is cleaned already
			}
			s.toShared(ctx, key, exact, p, err)
		})
	if !got {
		return fn(ctx) // fetch alone
	}
	return p, err
}
