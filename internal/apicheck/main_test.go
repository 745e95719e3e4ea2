package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAPIFilesCurrent is the check: api/ lists the exported API of the code
// as it is. When it fails, review the listed change and regenerate api/
// with go run ./internal/apicheck -write.
func TestAPIFilesCurrent(t *testing.T) {
	root := testRoot(t)
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mcp.txt", "jsonschema.txt", "strictjson.txt", "auth.txt", "redis.txt", "otel.txt"} {
		if files[want] == nil {
			t.Errorf("Generate made no %s (made %v)", want, slices.Sorted(mapKeys(files)))
		}
	}
	diff, err := Compare(filepath.Join(root, "api"), files)
	if err != nil {
		t.Fatal(err)
	}
	if diff != "" {
		t.Errorf("the exported API differs from api/ (- in api/, + in the code):\n%s\nIf the change is meant, run: go run ./internal/apicheck -write", diff)
	}
}

// TestModulesClassified fails when a module of go.work is neither released
// nor listed as unreleased, so a new module's API is not forgotten.
func TestModulesClassified(t *testing.T) {
	root := testRoot(t)
	out, err := exec.Command("go", "work", "edit", "-json", filepath.Join(root, "go.work")).Output()
	if err != nil {
		t.Fatal(err)
	}
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &work); err != nil {
		t.Fatal(err)
	}
	if len(work.Use) == 0 {
		t.Fatal("go.work lists no modules")
	}
	for _, u := range work.Use {
		dir := filepath.ToSlash(filepath.Clean(u.DiskPath))
		if !slices.Contains(releasedModules, dir) && !slices.Contains(unreleasedModules, dir) {
			t.Errorf("module %s of go.work is in neither releasedModules nor unreleasedModules (main.go)", dir)
		}
	}
}

func testRoot(t *testing.T) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

const fixture = `package p

import "context"

const Untyped = 1 << 3
const Typed Level = 2
const str = "unexported"

type Level int

var ErrX error
var Hook func(ctx context.Context, n int) (bool, error)

func F(name string, opts ...*Options) (*Options, error) { return nil, nil }
func Map[K comparable, V ~int | ~string](m map[K]V, f func(K) V) []V { return nil }
func unexported() {}

type Options struct {
	Name    string
	Handler func(ctx context.Context, req *Options) error
	Nested  struct{ A, b int }
	hidden  int
	*Embedded
	embedded
}

type Embedded struct{}
type embedded struct{}

type Sealed interface {
	Method(context.Context) error
	seal()
}

type Open interface {
	Sealed
	Other(ch <-chan int, xs [2]string) map[string]any
}

type Box[T any] struct{ Value T }

func (b *Box[T]) Get() T { return b.Value }
func (b Box[T]) String() string { return "" }
func (b Box[T]) private() {}

type Alias = Box[int]
type Number interface{ ~int | ~float64 }
`

// TestAPILines shows the format on a package with every kind of exported
// declaration: unexported names, parameter names and unexported fields
// are left out; an interface with an unexported method says so.
func TestAPILines(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", fixture, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pkg p, const Typed Level = 2",
		"pkg p, const Untyped = 8",
		"pkg p, func F(string, ...*Options) (*Options, error)",
		"pkg p, func Map[K comparable, V ~int | ~string](map[K]V, func(K) V) []V",
		"pkg p, method (*Box[T]) Get() T",
		"pkg p, method (Box[T]) String() string",
		"pkg p, type Alias = Box[int]",
		"pkg p, type Box[T any] struct",
		"pkg p, type Box[T any] struct, Value T",
		"pkg p, type Embedded struct",
		"pkg p, type Level int",
		"pkg p, type Number interface { ~int | ~float64 }",
		"pkg p, type Number interface, embedded ~int | ~float64",
		"pkg p, type Open interface { Other, Sealed }",
		"pkg p, type Open interface, Other(<-chan int, [2]string) map[string]any",
		"pkg p, type Open interface, embedded Sealed",
		"pkg p, type Options struct",
		"pkg p, type Options struct, Handler func(context.Context, *Options) error",
		"pkg p, type Options struct, Name string",
		"pkg p, type Options struct, Nested struct{ A int; b int }",
		"pkg p, type Options struct, embedded *Embedded",
		"pkg p, type Sealed interface { Method, unexported methods }",
		"pkg p, type Sealed interface, Method(context.Context) error",
		"pkg p, var ErrX error",
		"pkg p, var Hook func(context.Context, int) (bool, error)",
	}
	got := apiLines("p", pkg)
	if !slices.Equal(got, want) {
		t.Errorf("apiLines:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestCompareAndWrite shows the report of each kind of difference, and
// that Write makes the directory match (Compare then reports nothing).
func TestCompareAndWrite(t *testing.T) {
	dir := t.TempDir()
	old := map[string][]byte{
		"a.txt":      []byte("pkg a, func F()\npkg a, func G()\n"),
		"gone.txt":   []byte("pkg gone, func H()\n"),
		"same/b.txt": []byte("pkg same/b, var V int\n"),
	}
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	code := map[string][]byte{
		"a.txt":      []byte("pkg a, func F()\npkg a, func G(int)\n"),
		"new.txt":    []byte("pkg new, func N()\n"),
		"same/b.txt": []byte("pkg same/b, var V int\n"),
	}
	diff, err := Compare(dir, code)
	if err != nil {
		t.Fatal(err)
	}
	want := `api/a.txt:
-pkg a, func G()
+pkg a, func G(int)
api/gone.txt: the package is gone
-pkg gone, func H()
api/new.txt: missing (a new package)
+pkg new, func N()
`
	if diff != want {
		t.Errorf("Compare:\n%s\nwant:\n%s", diff, want)
	}
	if err := Write(dir, code); err != nil {
		t.Fatal(err)
	}
	if diff, err := Compare(dir, code); err != nil || diff != "" {
		t.Errorf("after Write, Compare = %q, %v; want no difference", diff, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("Write left the file of a package that is gone: %v", err)
	}
}

// TestImplementationsAsserted is the check of Unasserted: every type of a
// public package that implements an interface (the package's own, a
// public package's, http.Handler, slog.Handler, error) says so at compile
// time beside its declaration.
func TestImplementationsAsserted(t *testing.T) {
	missing, err := Unasserted(testRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Error(m)
	}
}

// TestUnassertedFixture shows what the check reports on a package written
// for it: each implementation without its assertion, whether the value or
// only the pointer implements, and nothing for an asserted one.
func TestUnassertedFixture(t *testing.T) {
	dir := t.TempDir()
	src := `package p

type Store interface{ Load() string }

type Asserted struct{}

var _ Store = (*Asserted)(nil)

func (*Asserted) Load() string { return "" }

type byPointer struct{}

func (*byPointer) Load() string { return "" }

type ByValue string

func (ByValue) Load() string { return "" }

type Failure struct{}

func (Failure) Error() string { return "" }

type Unrelated int
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := unassertedIn(listedPackage{ImportPath: "example.com/p", Dir: dir, GoFiles: []string{"p.go"}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p.ByValue implements Store: add var _ Store = (*ByValue)(nil) beside it (or = ByValue{} for a value type)",
		"p.Failure implements error: add var _ error = (*Failure)(nil) beside it (or = Failure{} for a value type)",
		"p.byPointer implements Store: add var _ Store = (*byPointer)(nil) beside it (or = byPointer{} for a value type)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("unassertedIn:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
