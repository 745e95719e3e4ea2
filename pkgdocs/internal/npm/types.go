package npm

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// TypesPackage returns the DefinitelyTyped package for name:
// "express" -> "@types/express", "@scope/name" -> "@types/scope__name".
func TypesPackage(name string) string {
	if scope, rest, ok := strings.Cut(strings.TrimPrefix(name, "@"), "/"); ok && strings.HasPrefix(name, "@") {
		return "@types/" + scope + "__" + rest
	}
	return "@types/" + name
}

// typesFallback fills pkg.Symbols from @types/<name> (its module at
// subpath, when not "") when the package ships no declarations: the @types
// version with the same major.minor, else the same major, else its
// latest. Failures become notes. It returns the declarations read, or nil.
func (s *Source) typesFallback(ctx context.Context, cfg *Config, name, version, subpath string, pkg *model.Package) *typeSet {
	typesName := TypesPackage(name)
	reg := cfg.Registry(typesName)
	p, err := s.packument(ctx, cfg, reg, typesName)
	switch {
	case errors.Is(err, fetch.ErrNotFound):
		if !hasSubpathNote(pkg) { // the subpaths have declarations
			pkg.Notes = append(pkg.Notes, fmt.Sprintf("No TypeScript declarations: the package ships none and %s does not exist.", typesName))
		}
		return nil
	case err != nil:
		if fetch.IsTransient(err) {
			pkg.Partial = true
		}
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("The package ships no TypeScript declarations and %s could not be read (%v).", typesName, err))
		return nil
	}
	tv := matchTypesVersion(p, version)
	vd, ok := p.Versions[tv]
	if ok && vd.Deprecated != "" {
		// A stub: "X provides its own type definitions".
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("No TypeScript declarations were found; %s@%s is deprecated: %s", typesName, tv, vd.Deprecated))
		return nil
	}
	if ok && isTypesStub(vd.Description) {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("No TypeScript declarations were found; %s@%s is a stub: %s", typesName, tv, vd.Description))
		return nil
	}
	if !ok || vd.Dist.Tarball == "" {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("No TypeScript declarations: %s has no usable version.", typesName))
		return nil
	}
	if vd.Name == "" {
		vd.Name, vd.Version = typesName, tv
	}
	tree, err := s.tarball(ctx, cfg, &vd)
	if err != nil {
		if fetch.IsTransient(err) {
			pkg.Partial = true
		}
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("%s@%s could not be read (%v).", typesName, tv, err))
		return nil
	}
	types, ts, err := extractSubpath(tree, "", subpath)
	if subpath != "" && (err != nil || ts == nil) {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("No TypeScript declarations for ./%s: the package ships none and %s@%s has none for it.", subpath, typesName, tv))
		return nil
	}
	pkg.Symbols = types.Symbols
	pkg.Origin += " + " + typesName + "@" + tv
	pkg.Notes = append(pkg.Notes, fmt.Sprintf("TypeScript declarations come from %s@%s (DefinitelyTyped), not from the package itself.", typesName, tv))
	return ts
}

// isTypesStub reports an @types release that holds no declarations, only
// a pointer to the package's own ("Stub TypeScript definitions entry for
// X, which provides its own types definitions"): DefinitelyTyped publishes
// one when it removes a package, not always marked deprecated.
func isTypesStub(description string) bool {
	d := strings.ToLower(description)
	return strings.HasPrefix(d, "stub typescript definitions") || strings.Contains(d, "provides its own type")
}

// matchTypesVersion picks the @types release matching a package version:
// same major.minor, else same major, else the latest dist-tag.
func matchTypesVersion(p *packument, version string) string {
	want, err := semver.NewVersion(version)
	var vs []*semver.Version
	for v, vd := range p.Versions {
		if sv, err := semver.StrictNewVersion(v); err == nil && sv.Prerelease() == "" && vd.Deprecated == "" {
			vs = append(vs, sv)
		}
	}
	sort.Sort(sort.Reverse(semver.Collection(vs)))
	if err == nil {
		for _, sameMinor := range []bool{true, false} {
			for _, v := range vs {
				if v.Major() == want.Major() && (!sameMinor || v.Minor() == want.Minor()) {
					return v.Original()
				}
			}
		}
	}
	if l := p.DistTags["latest"]; l != "" {
		return l
	}
	if len(vs) > 0 {
		return vs[0].Original()
	}
	return ""
}
