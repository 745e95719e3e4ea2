package rust

import (
	"reflect"
	"testing"
)

func TestParseCargoConfig(t *testing.T) {
	tests := []struct {
		name, data string
		want       map[string]cargoSource
	}{
		{"cargo vendor's config", "[source.crates-io]\nreplace-with = \"vendored-sources\"\n\n[source.vendored-sources]\ndirectory = \"vendor\"\n",
			map[string]cargoSource{"crates-io": {replaceWith: "vendored-sources"}, "vendored-sources": {directory: "vendor"}}},
		{"Debian's, with comments and quoted keys", "# dh-cargo\n[source]\n[source.\"debian-packages\"]\ndirectory = '/usr/share/cargo/registry' # the packages\n[source.'crates-io']\nreplace-with = \"debian-packages\"\n[net]\noffline = true\n",
			map[string]cargoSource{"debian-packages": {directory: "/usr/share/cargo/registry"}, "crates-io": {replaceWith: "debian-packages"}}},
		{"dotted keys at the top", "source.crates-io.replace-with = \"local\"\nsource.local.local-registry = \"/srv/reg\"\n",
			map[string]cargoSource{"crates-io": {replaceWith: "local"}, "local": {localRegistry: "/srv/reg"}}},
		{"a # inside a string", "[source.x]\ndirectory = \"a#b\"\n", map[string]cargoSource{"x": {directory: "a#b"}}},
		{"values that are not strings", "[source.x]\ndirectory = 3\nreplace-with = [\"y\"]\n", map[string]cargoSource{}},
		{"other tables", "[build]\ndirectory = \"no\"\n[source.a.b]\ndirectory = \"no\"\n", map[string]cargoSource{}},
	}
	for _, tt := range tests {
		if got := parseCargoConfig(tt.data); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestReplacement(t *testing.T) {
	tests := []struct {
		name string
		srcs map[string]cargoSource
		want string
		ok   bool
	}{
		{"a chain", map[string]cargoSource{"crates-io": {replaceWith: "a"}, "a": {replaceWith: "b"}, "b": {directory: "d"}}, "d", true},
		{"no replacement", map[string]cargoSource{"vendored": {directory: "vendor"}}, "", false},
		{"a loop", map[string]cargoSource{"crates-io": {replaceWith: "a"}, "a": {replaceWith: "crates-io"}}, "", false},
		{"a dangling name", map[string]cargoSource{"crates-io": {replaceWith: "gone"}}, "", false},
	}
	for _, tt := range tests {
		got, ok := replacement(tt.srcs)
		if ok != tt.ok || got.directory != tt.want {
			t.Errorf("%s: %+v %v, want %q %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzCargoConfig(f *testing.F) {
	for _, s := range []string{
		"[source.crates-io]\nreplace-with = \"v\"\n[source.v]\ndirectory = \"vendor\"\n",
		"source.\"a.b\".directory = 'x'\n",
		"[source.'unterminated]\ndirectory = \"\\\"\"",
		"[[source.x]]\n=\n\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		srcs := parseCargoConfig(data)
		replacement(srcs)
		for name := range srcs {
			if len(name) > len(data) {
				t.Fatalf("source name %q longer than the input", name)
			}
		}
	})
}
