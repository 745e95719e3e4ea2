// Package testutil builds test fixtures at test time: module zips and
// tarballs from txtar file trees, so that no binary blobs live in git.
package testutil

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"testing"

	"golang.org/x/tools/txtar"
)

// File is one archive entry.
type File struct {
	Name string
	Data []byte
}

// Txtar parses txtar text into files.
func Txtar(src string) []File {
	ar := txtar.Parse([]byte(src))
	out := make([]File, 0, len(ar.Files))
	for _, f := range ar.Files {
		out = append(out, File{Name: f.Name, Data: f.Data})
	}
	return out
}

// TxtarFile reads and parses a txtar fixture.
func TxtarFile(t testing.TB, path string) []File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Txtar(string(data))
}

// Zip builds a zip archive whose entries are prefix+name.
func Zip(t testing.TB, prefix string, files []File) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(prefix + f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(f.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TarGz builds a gzip-compressed tar archive whose entries are prefix+name.
func TarGz(t testing.TB, prefix string, files []File) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: prefix + f.Name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
