package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

const tree = `
-- README.md --
# demo
-- lib/a.go --
package lib
-- lib/big.bin --
` + "0123456789012345678901234567890123456789" + `
`

func TestReadZip(t *testing.T) {
	data := testutil.Zip(t, "example.com/m@v1.0.0/", testutil.Txtar(tree))
	tr, err := ReadZip(data, Options{Prefix: "example.com/m@v1.0.0/", Keep: func(n string) bool { return !strings.HasSuffix(n, ".md") }, Limits: Limits{MaxFileSize: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.Names(), ","); got != "README.md,lib/a.go,lib/big.bin" {
		t.Fatalf("names = %s", got)
	}
	if _, ok := tr.Get("README.md"); ok {
		t.Error("filtered-out file was read")
	}
	if b, ok := tr.Get("lib/a.go"); !ok || string(b) != "package lib\n" {
		t.Errorf("lib/a.go = %q %v", b, ok)
	}
	if len(tr.Skipped) != 1 || tr.Skipped[0] != "lib/big.bin" {
		t.Errorf("oversized file not skipped: %v", tr.Skipped)
	}
	if !tr.HasDir("lib") || tr.HasDir("li") || !tr.Has("README.md") {
		t.Error("HasDir/Has wrong")
	}
}

func TestReadTarGzStripsFirst(t *testing.T) {
	data := testutil.TarGz(t, "package/", testutil.Txtar(tree))
	tr, err := ReadTarGz(data, Options{StripFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := tr.Get("README.md"); !ok || string(b) != "# demo\n" {
		t.Fatalf("README.md = %q", b)
	}
}

func TestArchiveFaults(t *testing.T) {
	good := testutil.TarGz(t, "package/", testutil.Txtar(tree))
	tests := []struct {
		name    string
		read    func() error
		wantErr error
	}{
		{"zip-slip in zip", func() error {
			_, err := ReadZip(testutil.Zip(t, "", []testutil.File{{Name: "m@v1/../../etc/passwd", Data: []byte("x")}}), Options{})
			return err
		}, ErrUnsafePath},
		{"absolute path in tar", func() error {
			_, err := ReadTarGz(testutil.TarGz(t, "/", []testutil.File{{Name: "etc/passwd", Data: []byte("x")}}), Options{})
			return err
		}, ErrUnsafePath},
		{"truncated gzip", func() error {
			_, err := ReadTarGz(good[:len(good)/2], Options{StripFirst: true})
			return err
		}, ErrCorrupt},
		{"not a zip", func() error {
			_, err := ReadZip([]byte("nope"), Options{})
			return err
		}, ErrCorrupt},
		{"too many entries", func() error {
			_, err := ReadTarGz(good, Options{Limits: Limits{MaxEntries: 2}})
			return err
		}, ErrTooLarge},
		{"total too large", func() error {
			_, err := ReadTarGz(good, Options{Limits: Limits{MaxTotal: 10}})
			return err
		}, ErrTooLarge},
	}
	for _, tt := range tests {
		if err := tt.read(); !errors.Is(err, tt.wantErr) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
		}
	}
}

func TestTarSymlinksIgnored(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "package/link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	tw.Close()
	gz.Close()
	tr, err := ReadTarGz(buf.Bytes(), Options{StripFirst: true})
	if err != nil || len(tr.Names()) != 0 {
		t.Fatalf("symlink handling: %v %v", tr, err)
	}
}

// Each kept file read is reported to the answer's progress; files the
// filter drops or that are too large are not.
func TestReadReportsFiles(t *testing.T) {
	data := testutil.TarGz(t, "package/", testutil.Txtar(tree))
	got := make(chan progress.Update, 10)
	rep := progress.New(func(u progress.Update) { got <- u }, nil)
	_, err := ReadTarGz(data, Options{StripFirst: true, Keep: func(n string) bool { return n != "README.md" }, Limits: Limits{MaxFileSize: 20}, Progress: rep})
	if err != nil {
		t.Fatal(err)
	}
	rep.Finish()
	var last progress.Update
	for len(got) > 0 {
		last = <-got
	}
	if last.Stage != progress.Done || last.Files != 1 {
		t.Errorf("last update %+v, want done with 1 file read (lib/a.go)", last)
	}
}
