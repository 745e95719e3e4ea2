package swift

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/readme"
)

// ErrNotPackage reports a repository without a Package.swift.
var ErrNotPackage = errors.New("not a Swift package (no Package.swift at the repository root)")

const maxSourceFiles = 400

// Extract documents the package in tree: its manifest (products, the
// modules to import, dependencies, platforms), README, the public API of
// its library modules, and their DocC catalogs. identity is the package
// identity (repository name) used in install instructions; location and
// requirement fill the .package(...) line.
func Extract(tree *archive.Tree, identity, location, requirement string) (*model.Package, error) {
	src, ok := tree.Get("Package.swift")
	if !ok {
		return nil, ErrNotPackage
	}
	pkg := &model.Package{}
	man, err := ParseManifest(src)
	if err != nil {
		man = &Manifest{Incomplete: true}
		pkg.Notes = append(pkg.Notes, "Package.swift could not be read ("+err.Error()+"); modules are guessed from Sources/.")
	} else if man.Incomplete {
		pkg.Notes = append(pkg.Notes, "Package.swift is read as text, not run: values it computes may be missing below.")
	}
	var origin []string
	if name, data, ok := tree.Find(func(n string) bool {
		return !strings.Contains(n, "/") && strings.HasPrefix(strings.ToLower(n), "readme")
	}); ok {
		pkg.Sections = append(pkg.Sections, readme.Sections(data, name)...)
		origin = append(origin, name)
	} else {
		pkg.Notes = append(pkg.Notes, "The repository has no README.")
	}
	origin = append(origin, "Package.swift")
	modules := man.Modules()
	if len(modules) == 0 {
		modules = guessModules(tree)
	}
	pkg.Sections = append(pkg.Sections, manifestSection(man, modules))
	sc := &Scanner{}
	files, docc := 0, 0
	for _, mod := range modules {
		dir := moduleDir(tree, man, mod)
		if dir == "" {
			continue
		}
		before := len(sc.Symbols)
		for _, n := range tree.Names() {
			if !strings.HasPrefix(n, dir+"/") {
				continue
			}
			switch {
			case strings.HasSuffix(n, ".swift") && files < maxSourceFiles:
				if data, ok := tree.Get(n); ok {
					sc.Scan(data, n)
					files++
				}
			case strings.HasSuffix(n, ".md") && strings.Contains(n, ".docc/") && docc < 40:
				if data, ok := tree.Get(n); ok {
					pkg.Sections = append(pkg.Sections, doccSections(data, n)...)
					docc++
				}
			}
		}
		if len(modules) > 1 {
			for i := before; i < len(sc.Symbols); i++ {
				sc.Symbols[i].Name = mod + "." + sc.Symbols[i].Name
			}
		}
	}
	pkg.Symbols = sc.Symbols
	if files > 0 {
		origin = append(origin, fmt.Sprintf("%d Swift sources", files))
	}
	if docc > 0 {
		origin = append(origin, "DocC")
	}
	if sc.Full() {
		pkg.Notes = append(pkg.Notes, fmt.Sprintf("The API has more than %d public declarations; the rest are left out.", len(sc.Symbols)))
	}
	pkg.Origin = strings.Join(origin, " + ")
	pkg.Install = install(man, modules, identity, location, requirement)
	return pkg, nil
}

// moduleDir finds a module's source directory: its target path, else
// SwiftPM's defaults.
func moduleDir(tree *archive.Tree, man *Manifest, mod string) string {
	if t, ok := man.Target(mod); ok && t.Path != "" {
		p := path.Clean(strings.TrimPrefix(t.Path, "./"))
		if !strings.HasPrefix(p, "..") && tree.HasDir(p) {
			return p
		}
	}
	for _, root := range []string{"Sources", "Source", "src", "srcs"} {
		if p := root + "/" + mod; tree.HasDir(p) {
			return p
		}
	}
	return ""
}

// guessModules lists the directories of Sources/ when the manifest could
// not be read.
func guessModules(tree *archive.Tree) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range tree.Names() {
		rest, ok := strings.CutPrefix(n, "Sources/")
		if !ok {
			continue
		}
		if mod, _, ok := strings.Cut(rest, "/"); ok && !seen[mod] {
			seen[mod] = true
			out = append(out, mod)
		}
	}
	sort.Strings(out)
	return out
}

// doccSections reads one DocC article; the catalog's landing page (titled
// with the module's symbol link) is an overview.
func doccSections(data []byte, file string) []model.Section {
	secs := readme.Sections(data, file)
	landing := strings.HasPrefix(strings.TrimSpace(string(data)), "# ``")
	for i := range secs {
		switch {
		case landing && secs[i].Priority == model.PriorityOverview:
			secs[i].Priority = model.PriorityUsage
		case secs[i].Priority == model.PriorityOverview:
			secs[i].Priority = model.PriorityRest
		}
	}
	return secs
}

// manifestSection summarises Package.swift: what to import, products,
// platforms, dependencies.
func manifestSection(man *Manifest, modules []string) model.Section {
	var b strings.Builder
	b.WriteString("## Package.swift\n\n")
	if man.ToolsVersion != "" {
		fmt.Fprintf(&b, "- Swift tools version: %s\n", man.ToolsVersion)
	}
	if len(modules) > 0 {
		fmt.Fprintf(&b, "- Modules to import: %s\n", strings.Join(modules, ", "))
	}
	for _, p := range man.Products {
		kind := p.Kind
		if p.Type != "" {
			kind += " " + p.Type
		}
		fmt.Fprintf(&b, "- Product %s (%s): %s\n", p.Name, kind, strings.Join(p.Targets, ", "))
	}
	if len(man.Platforms) > 0 {
		fmt.Fprintf(&b, "- Platforms: %s\n", strings.Join(man.Platforms, ", "))
	}
	for _, d := range man.Dependencies {
		fmt.Fprintf(&b, "- Depends on %s %s\n", d.Location, d.Requirement)
	}
	return model.Section{Path: []string{"Package.swift"}, Markdown: strings.TrimSpace(b.String()), Priority: model.PriorityUsage, File: "Package.swift"}
}

// install writes the lines to add the package to a Package.swift.
func install(man *Manifest, modules []string, identity, location, requirement string) string {
	if location == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("```swift\n// Package.swift\n")
	fmt.Fprintf(&b, ".package(url: %q, %s),\n", location, requirement)
	var products []string
	for _, p := range man.Products {
		if p.Kind == "library" {
			products = append(products, p.Name)
		}
	}
	if len(products) == 0 {
		products = modules
	}
	if len(products) > 0 {
		b.WriteString("// in your target's dependencies:\n")
	}
	for _, p := range firstN(products, 3) {
		fmt.Fprintf(&b, ".product(name: %q, package: %q),\n", p, identity)
	}
	if len(modules) > 0 {
		b.WriteString("// in your code:\n")
	}
	for _, m := range firstN(modules, 3) {
		fmt.Fprintf(&b, "import %s\n", m)
	}
	b.WriteString("```")
	return b.String()
}
