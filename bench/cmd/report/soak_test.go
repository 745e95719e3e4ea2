package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSoakSection(t *testing.T) {
	dir := t.TempDir()
	if r, err := readSoak(dir); r != nil || err != nil {
		t.Fatalf("no file: %v %v", r, err)
	}
	data := `{"date":"d","machine":"m","go":"g","clients":64,"sessions":10,"eras":[{"era":"modern","calls":100,"errors":0,"lost":1,"seconds":1,"callsPerSecond":100}],` +
		`"sessionErrors":0,"sessionsPerSecond":5,"liveSessions":0,"goroutinesWarm":3,"goroutinesAfter":3,"rssWarmBytes":1048576,"rssAfterBytes":1048576,"pass":false,"failures":["modern: 0 errors, 1 lost responses in 100 calls"]}`
	if err := os.WriteFile(filepath.Join(dir, soakFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := readSoak(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := writeSoak(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Soak", "NOT MET: modern: 0 errors, 1 lost", "| tools/call, modern, 64 clients | 100 calls | 0 | 1 | 100 calls/s |", "| legacy sessions opened, called, deleted | 10 sessions | 0 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("section lacks %q:\n%s", want, b.String())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, soakFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSoak(dir); err == nil {
		t.Error("a malformed file gave no error")
	}
}
