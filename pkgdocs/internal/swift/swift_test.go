package swift

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func fixture(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	for _, f := range testutil.TxtarFile(t, "../../testdata/swift/greeter.txtar") {
		files[f.Name] = f.Data
	}
	return files
}

func TestParseManifest(t *testing.T) {
	m, err := ParseManifest(fixture(t)["Package.swift"])
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		ToolsVersion: "5.9",
		Name:         "swift-greeter",
		Platforms:    []string{"macOS 13", "iOS 16.0"},
		Products: []Product{
			{Name: "Greeter", Kind: "library", Targets: []string{"Greeter"}},
			{Name: "greet", Kind: "executable", Targets: []string{"greet"}},
		},
		Targets: []Target{
			{Name: "Greeter", Kind: "target", Dependencies: []string{"ArgumentParser (swift-argument-parser)"}},
			{Name: "greet", Kind: "executableTarget", Dependencies: []string{"Greeter"}},
			{Name: "GreeterTests", Kind: "testTarget", Dependencies: []string{"Greeter"}},
		},
		Dependencies: []Dependency{
			{Location: "https://github.com/apple/swift-argument-parser.git", Requirement: `from: "1.2.0"`},
			{Location: "https://github.com/apple/swift-log.git", Requirement: `"1.0.0"..<"2.0.0"`},
		},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("manifest:\n%+v\nwant:\n%+v", m, want)
	}
	if got := m.Modules(); !reflect.DeepEqual(got, []string{"Greeter"}) {
		t.Errorf("modules = %v", got)
	}
}

func TestParseManifestForms(t *testing.T) {
	src := `// swift-tools-version:5.5
import PackageDescription
var targets: [Target] = [.target(name: "Core", path: "Sources/CoreImpl")]
targets.append(.testTarget(name: "CoreTests"))
let package = Package(
  name: "Core",
  products: [.library(name: "Core", type: .dynamic, targets: ["Core"])],
  dependencies: [
    .package(url: "https://github.com/a/b", .upToNextMajor(from: "2.0.0")),
    .package(name: "C", url: "https://github.com/a/c.git", .exact("1.0.0")),
    .package(path: "../Local"),
    .package(id: "acme.tools", from: "3.1.0"),
  ] + extraDependencies(),
  targets: targets
)
package.products.append(.library(name: "Extra", targets: ["Core"]))
`
	m, err := ParseManifest([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	deps := []Dependency{
		{"https://github.com/a/b", `.upToNextMajor(from: "2.0.0")`},
		{"https://github.com/a/c.git", `.exact("1.0.0")`},
		{"../Local", ""},
		{"acme.tools", `from: "3.1.0"`},
	}
	if !reflect.DeepEqual(m.Dependencies, deps) {
		t.Errorf("dependencies = %+v", m.Dependencies)
	}
	if !m.Incomplete {
		t.Error("a computed dependency list must mark the manifest incomplete")
	}
	if len(m.Products) != 2 || m.Products[0].Type != ".dynamic" || m.Products[1].Name != "Extra" {
		t.Errorf("products = %+v", m.Products)
	}
	if len(m.Targets) != 1 || m.Targets[0].Path != "Sources/CoreImpl" {
		t.Errorf("targets = %+v (a var's later append is not a package mutation and is not followed)", m.Targets)
	}
	if _, err := ParseManifest([]byte("let x = 1\nfunc f() {}\n")); !errors.Is(err, ErrManifest) {
		t.Errorf("no Package(...): err = %v", err)
	}
}

func scanFixture(t *testing.T) map[string]model.Symbol {
	sc := &Scanner{}
	sc.Scan(fixture(t)["Sources/Greeter/Greeter.swift"], "Sources/Greeter/Greeter.swift")
	out := map[string]model.Symbol{}
	var order []string
	for _, s := range sc.Symbols {
		out[s.Name] = s
		order = append(order, s.Kind+" "+s.Name)
	}
	want := `struct Greeter
property Greeter.name
property Greeter.count
init Greeter.init
method Greeter.greet
struct Greeter.Options
property Greeter.Options.rawValue
init Greeter.Options.init
enum Tone
case Tone.formal
case Tone.casual
case Tone.loud
case Tone.mixed
protocol Greeting
associatedtype Greeting.Output
property Greeting.text
method Greeting.render
property Greeter.text
method Greeter.render
method String.greeted
class BaseGreeter
init BaseGreeter.init
method BaseGreeter.hello
func legacyGreet
const defaultGreeter
typealias GreetingHandler`
	if got := strings.Join(order, "\n"); got != want {
		t.Fatalf("symbols:\n%s\nwant:\n%s", got, want)
	}
	return out
}

func TestScanSwiftDeclarations(t *testing.T) {
	syms := scanFixture(t)
	sigs := map[string]string{
		"Greeter":           "public struct Greeter: Sendable",
		"Greeter.greet":     "public func greet(_ who: String, times: Int = 1) async throws -> String",
		"Greeter.count":     "public private(set) var count",
		"Greeter.init":      "public init(name: String)",
		"Tone.loud":         `case loud = "LOUD"`,
		"Tone.mixed":        "case mixed(Tone, Tone)",
		"Greeting.text":     "var text: String { get }",
		"Greeting.render":   "func render() -> Output",
		"Greeter.text":      "public var text: String",
		"BaseGreeter.hello": "open func hello() -> String",
		"defaultGreeter":    "public let defaultGreeter",
		"GreetingHandler":   "public typealias GreetingHandler = (String) -> Void",
		"String.greeted":    "func greeted() -> String",
	}
	for name, want := range sigs {
		if got := syms[name].Signature; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	docs := map[string]string{
		"Greeter":      "Greets people by name.\n\nCreate one with ``init(name:)``.",
		"Greeter.init": "Creates a greeter.\n- Parameter name: The greeter's name.",
		"Tone.formal":  "Suits and ties.",
		"legacyGreet":  "**Deprecated**: Use Greeter.greet",
	}
	for name, want := range docs {
		if got := syms[name].Doc; got != want {
			t.Errorf("%s doc: %q, want %q", name, got, want)
		}
	}
}

func TestParseRefs(t *testing.T) {
	adv := pkt("# service=git-upload-pack\n") + "0000" +
		pkt(sha('a')+" HEAD\x00multi_ack symref=HEAD:refs/heads/main\n") +
		pkt(sha('a')+" refs/heads/main\n") +
		pkt(sha('b')+" refs/tags/1.0.0\n") +
		pkt(sha('c')+" refs/tags/v1.2.0\n") +
		pkt(sha('d')+" refs/tags/v1.2.0^{}\n") +
		pkt(sha('e')+" refs/tags/2.0.0-beta.1\n") +
		pkt(sha('f')+" refs/tags/nightly\n") + "0000"
	r, err := ParseRefs([]byte(adv))
	if err != nil {
		t.Fatal(err)
	}
	if r.Head != sha('a') || !reflect.DeepEqual(r.Tags(), []string{"1.0.0", "v1.2.0", "2.0.0-beta.1", "nightly"}) {
		t.Fatalf("head %s, tags %v", r.Head, r.Tags())
	}
	if got := r.LatestTag(); got != "v1.2.0" {
		t.Errorf("latest = %q (pre-releases only when nothing else)", got)
	}
	if got, ok := r.FindTag("1.2.0"); !ok || got != "v1.2.0" {
		t.Errorf("FindTag(1.2.0) = %q", got)
	}
	if got := r.NearestTags("1.1.0"); !reflect.DeepEqual(got, []string{"v1.2.0", "1.0.0"}) {
		t.Errorf("nearest = %v", got)
	}
	for _, bad := range []string{"00", "zzzz", "0100abc", pkt("nothex HEAD\n")} {
		if _, err := ParseRefs([]byte(bad)); !errors.Is(err, ErrRefs) {
			t.Errorf("ParseRefs(%q): err = %v", bad, err)
		}
	}
}

func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

func sha(c byte) string { return strings.Repeat(string(c), 40) }

func FuzzManifest(f *testing.F) {
	f.Add(string(fixture(f)["Package.swift"]))
	f.Add("let package = Package(name: \"x\", targets: [.target(name: \"A\", dependencies: [\"B\"])] + [x])\n#if os(Linux)\npackage.targets += []\n#endif")
	f.Add("let package = Package(dependencies: [.package(url: \"u\", \"1\"..<\"2\")], platforms: [.macOS(\"10\")])")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ParseManifest([]byte(src))
		if err == nil {
			m.Modules()
		}
	})
}

func FuzzSwiftScanner(f *testing.F) {
	f.Add(string(fixture(f)["Sources/Greeter/Greeter.swift"]))
	f.Add("public struct A { public func f(\n x: Int\n) -> Int { \"\\(\"}\")\" }\n #\"raw \"\"# }")
	f.Add("public extension A.B where T == Int { func g() }\n/** doc */ public enum E { case a, b(Int) }")
	f.Fuzz(func(t *testing.T, src string) {
		sc := &Scanner{MaxSymbols: 100}
		sc.Scan([]byte(src), "a.swift")
		if len(sc.Symbols) > 100 {
			t.Fatalf("symbol cap ignored: %d", len(sc.Symbols))
		}
	})
}

func FuzzRefs(f *testing.F) {
	f.Add([]byte(pkt("# service=git-upload-pack\n") + "0000" + pkt(sha('a')+" refs/tags/1.0.0\n") + "0000"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := ParseRefs(data); err == nil {
			r.LatestTag()
			r.NearestTags("1.0.0")
		}
	})
}
