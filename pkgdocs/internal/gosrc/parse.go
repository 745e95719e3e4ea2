package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/gomcp/sdk/pkgdocs/internal/archive"
)

// parseFiles parses the named files of directory dir of tree, on as many
// goroutines as there are CPUs (parsing is most of a cold answer about a
// large package: go-redis has 70 files). It returns the files and errors
// in the order of names. fset is safe for concurrent use; the positions
// it gives depend on the order files finish, so callers order comments
// by position themselves (sortedComments).
func parseFiles(fset *token.FileSet, tree *archive.Tree, dir string, names []string) ([]*ast.File, []error) {
	files := make([]*ast.File, len(names))
	errs := make([]error, len(names))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rel := path.Join(dir, names[i])
				src, _ := tree.Get(rel)
				files[i], errs[i] = parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
			}
		}()
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	return files, errs
}

// sortedComments returns the comments of files in source order, as
// go/printer and keptComments expect them.
func sortedComments(files []*ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	for _, f := range files {
		out = append(out, f.Comments...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}
