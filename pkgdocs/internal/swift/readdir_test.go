package swift

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadDirBounds: no Package.swift, nothing is walked; with one, only
// the top level, Sources/ and DocC catalogs are read.
func TestReadDirBounds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "unrelated", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "unrelated", "deep", "X.swift"), []byte("public func x() {}"), 0o644)
	if _, err := readDir(dir); !errors.Is(err, ErrNotPackage) {
		t.Fatalf("no Package.swift: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "Package.swift"), []byte("// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\")\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "Sources", "P"), 0o755)
	os.WriteFile(filepath.Join(dir, "Sources", "P", "P.swift"), []byte("public func p() {}"), 0o644)
	tree, err := readDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Has("Sources/P/P.swift") || tree.Has("unrelated/deep/X.swift") {
		t.Fatalf("files read: %q", tree.Names())
	}
}
