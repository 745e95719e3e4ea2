// Command modpublish writes a module, as committed in a git work tree, to a
// module proxy laid out on the file system (GOPROXY=file://DIR), the way a
// release tag publishes it on the real proxy. The install check
// (.ci/install-check.sh) uses it to install the repository's commands as
// users do, with go install MODULE/cmd/NAME@VERSION, before anything is
// tagged.
//
//	go run ./internal/modpublish -proxy DIR -version VERSION MODULE_DIR
//
// The module zip holds the files git tracks under MODULE_DIR, except those
// of nested modules (directories with their own go.mod), each under the
// MODULE@VERSION/ prefix the go command expects.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	proxy := flag.String("proxy", "", "directory of the file-system proxy (created if needed)")
	version := flag.String("version", "", "version to publish, e.g. v1.2.3")
	flag.Parse()
	if *proxy == "" || *version == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: modpublish -proxy DIR -version VERSION MODULE_DIR")
		os.Exit(2)
	}
	if err := publish(*proxy, *version, flag.Arg(0)); err != nil {
		log.Fatal(err)
	}
}

// publish writes the module in dir at version to the proxy directory.
func publish(proxy, version, dir string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	mod, err := modulePath(gomod)
	if err != nil {
		return err
	}
	files, err := trackedFiles(dir)
	if err != nil {
		return err
	}
	zipData, err := moduleZip(dir, mod+"@"+version, files)
	if err != nil {
		return err
	}
	vdir := filepath.Join(proxy, filepath.FromSlash(escapePath(mod)), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	list, _ := os.ReadFile(filepath.Join(vdir, "list"))
	for name, data := range map[string][]byte{
		version + ".info": info,
		version + ".mod":  gomod,
		version + ".zip":  zipData,
		"list":            append(list, []byte(version+"\n")...),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// modulePath returns the path in a go.mod's module directive.
func modulePath(gomod []byte) (string, error) {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", errors.New("go.mod has no module directive")
}

// trackedFiles returns the files git tracks under dir, relative to it and
// slash-separated, without those of nested modules.
func trackedFiles(dir string) ([]string, error) {
	out, err := exec.Command("git", "-C", dir, "ls-files", "-z", ".").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files in %s: %w", dir, err)
	}
	var all, nested []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if f == "" {
			continue
		}
		all = append(all, f)
		if path.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, path.Dir(f)+"/")
		}
	}
	var files []string
	for _, f := range all {
		inNested := false
		for _, n := range nested {
			inNested = inNested || strings.HasPrefix(f, n)
		}
		if !inNested {
			files = append(files, f)
		}
	}
	return files, nil
}

// moduleZip returns a module zip of files under the prefix.
func moduleZip(dir, prefix string, files []string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		w, err := zw.Create(prefix + "/" + f)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// escapePath escapes a module path for the proxy protocol: each upper-case
// letter becomes '!' and its lower-case form.
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
