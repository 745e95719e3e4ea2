package service

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// addPython serves tinyhttp 1.4.0 on the PyPI JSON API with its wheel.
func addPython(t testing.TB, mux *http.ServeMux, u *upstream) {
	whl := testutil.Zip(t, "", testutil.TxtarFile(t, "../../testdata/python/tinyhttp.txtar"))
	project := func() map[string]any {
		return map[string]any{
			"info": map[string]any{"name": "tinyhttp", "version": "1.4.0", "summary": "HTTP for tiny humans.", "requires_python": ">=3.9",
				"description_content_type": "text/markdown",
				"description":              "# tinyhttp\n\nHTTP for tiny humans.\n\n## Installation\n\n```sh\npip install tinyhttp\n```\n\n## Usage\n\n```python\nimport tinyhttp\nr = tinyhttp.get(\"https://example.com\")\n```\n\n## License\n\nApache-2.0\n",
				"project_urls":             map[string]string{"Source": "https://github.com/example/tinyhttp"}},
			"releases": map[string]any{"1.3.0": []any{}, "1.4.0": []any{}},
			"urls": []any{map[string]any{"filename": "tinyhttp-1.4.0-py3-none-any.whl", "url": u.URL + "/pypi/files/tinyhttp-1.4.0-py3-none-any.whl",
				"digests": map[string]string{"sha256": sha256hex(whl)}}},
		}
	}
	for _, p := range []string{"/pypi/pypi/tinyhttp/json", "/pypi/pypi/tinyhttp/1.4.0/json"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(project()) })
	}
	mux.HandleFunc("/pypi/files/tinyhttp-1.4.0-py3-none-any.whl", func(w http.ResponseWriter, r *http.Request) { w.Write(whl) })
}

// addRust serves kvstore 0.3.1 on crates.io, its archive and its docs.rs
// rustdoc JSON.
func addRust(t testing.TB, mux *http.ServeMux) {
	tgz := testutil.TarGz(t, "kvstore-0.3.1/", testutil.TxtarFile(t, "../../testdata/rust/kvstore.txtar"))
	rd, err := os.ReadFile("../../testdata/rust/kvstore.rustdoc.json")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(rd)
	zw.Close()
	crate := fmt.Sprintf(`{"crate": {"name": "kvstore", "description": "A tiny typed key-value store", "repository": "https://github.com/example/kvstore", "default_version": "0.3.1"},
		"versions": [{"num": "0.3.1", "checksum": %q, "license": "MIT OR Apache-2.0", "features": {"default": ["std"], "std": []}}, {"num": "0.2.0", "checksum": "00"}]}`, sha256hex(tgz))
	mux.HandleFunc("/crates/api/v1/crates/kvstore", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(crate)) })
	mux.HandleFunc("/crates/api/v1/crates", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"crates": [{"name": "kvstore"}]}`))
	})
	mux.HandleFunc("/static/crates/kvstore/kvstore-0.3.1.crate", func(w http.ResponseWriter, r *http.Request) { w.Write(tgz) })
	mux.HandleFunc("/docsrs/crate/kvstore/0.3.1/json.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(gz.Bytes()) })
}

// addSwift serves acme/swift-greeter: its refs and the 1.2.0 tarball.
func addSwift(t testing.TB, mux *http.ServeMux) {
	tgz := testutil.TarGz(t, "swift-greeter-1.2.0/", testutil.TxtarFile(t, "../../testdata/swift/greeter.txtar"))
	pkt := func(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }
	sha := func(c string) string { return string(bytes.Repeat([]byte(c), 40)) }
	adv := pkt("# service=git-upload-pack\n") + "0000" + pkt(sha("a")+" HEAD\x00symref=HEAD:refs/heads/main\n") +
		pkt(sha("b")+" refs/tags/1.0.0\n") + pkt(sha("c")+" refs/tags/1.2.0\n") + "0000"
	mux.HandleFunc("/git/acme/swift-greeter.git/info/refs", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(adv)) })
	mux.HandleFunc("/codeload/acme/swift-greeter/tar.gz/refs/tags/1.2.0", func(w http.ResponseWriter, r *http.Request) { w.Write(tgz) })
}
