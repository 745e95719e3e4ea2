package npm

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// addJSAPI reads the JSDoc of the package's JavaScript sources (see
// readJSAPI). With no declarations it is the package's API; with
// declarations (from @types), the declarations keep their signatures, and
// each one the source documents is found by its source name too
// ("app.use") and, when its declaration has no JSDoc, gets the source's,
// saying where it comes from. from is "name@version".
func addJSAPI(pkg *model.Package, tree *archive.Tree, from string) {
	var pj packageJSON
	if data, ok := tree.Get("package.json"); ok {
		_ = json.Unmarshal(data, &pj)
	}
	js := readJSAPI(tree, pj)
	if len(js.Symbols) == 0 {
		return
	}
	if len(pkg.Symbols) == 0 {
		pkg.Symbols = js.Symbols
		pkg.Origin += fmt.Sprintf(" + JSDoc of %s", filesPhrase(js.Files))
		pkg.Notes = append(pkg.Notes, "The API comes from the JSDoc comments of the package's JavaScript sources: signatures are as the source writes them, without types.")
		return
	}
	if n := mergeJSDocs(pkg.Symbols, js.Symbols, from); n > 0 {
		pkg.Origin += fmt.Sprintf(" + JSDoc of %s", filesPhrase(js.Files))
	}
}

func filesPhrase(files []string) string {
	if len(files) == 1 {
		return files[0]
	}
	return fmt.Sprintf("%d JavaScript files", len(files))
}

// mergeJSDocs matches source symbols to declared ones by member name and
// owner ("app.use" in lib/application.js is "express.Application.use":
// "app" abbreviates "Application"; an owner-less function matches a
// top-level declaration), adds the source name as an alias, and gives
// declarations without JSDoc the source's. Only the declarations whose
// owner matches best are taken. It returns the number of declarations
// matched.
func mergeJSDocs(syms []model.Symbol, js []model.Symbol, from string) int {
	byLast := map[string][]int{}
	for i, s := range syms {
		byLast[lastName(s.Name)] = append(byLast[lastName(s.Name)], i)
	}
	matched := 0
	for _, j := range js {
		jOwner, jLast := splitOwner(j.Name)
		var best []int
		bestQ := 0
		for _, i := range byLast[jLast] {
			dOwner, _ := splitOwner(syms[i].Name)
			switch q := ownerMatch(jOwner, dOwner, j.File); {
			case q > bestQ:
				best, bestQ = []int{i}, q
			case q == bestQ && q > 0:
				best = append(best, i)
			}
		}
		for _, i := range best {
			d := &syms[i]
			matched++
			if d.Name != j.Name && !contains(d.Aliases, j.Name) && len(d.Aliases) < 4 {
				d.Aliases = append(d.Aliases, j.Name)
			}
			if strings.TrimSpace(d.Doc) == "" && j.Doc != "" {
				d.Doc = withSource(j.Doc, fmt.Sprintf("*Documented in %s of %s as `%s`.*", j.File, from, j.Signature))
			}
		}
	}
	return matched
}

// ownerMatch rates how well a source owner ("app", "res", "createDebug",
// "" for none) names a declared owner ("Application", "Response", "Debug";
// the qualified owner's last part), 0 for not at all: the same name (3);
// the file the source symbol is in (lib/application.js, 2); a lower-case
// object abbreviating it (app for Application, 2); a name ending with it
// (createDebug for Debug, 1).
func ownerMatch(jOwner, dOwner, file string) int {
	if jOwner == "" {
		if !strings.Contains(dOwner, ".") && (dOwner == "" || !isTypeName(dOwner)) {
			return 3
		}
		return 0
	}
	_, d := splitOwner(dOwner)
	_, j := splitOwner(jOwner)
	ld, lj := strings.ToLower(d), strings.ToLower(j)
	base := strings.ToLower(strings.TrimSuffix(path.Base(file), path.Ext(file)))
	switch {
	case d == "":
		return 0
	case lj == ld:
		return 3
	case base == ld:
		return 2
	case len(j) >= 3 && j == lj && strings.HasPrefix(ld, lj):
		return 2
	case len(d) >= 3 && strings.HasSuffix(lj, ld):
		return 1
	}
	return 0
}

// isTypeName reports a capitalized name: an interface or class rather
// than the namespace a package's functions are declared in.
func isTypeName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func splitOwner(name string) (owner, last string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

func lastName(name string) string {
	_, l := splitOwner(name)
	return l
}

// withSource puts the line saying where documentation comes from at the
// end of its first paragraph, which search results show.
func withSource(doc, line string) string {
	first, rest, ok := strings.Cut(doc, "\n\n")
	if !ok {
		return doc + "\n" + line
	}
	return first + "\n" + line + "\n\n" + rest
}
