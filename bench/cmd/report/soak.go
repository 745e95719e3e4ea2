package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// soakFile is where the soak test (bench/soak_test.go) leaves its results,
// in the bench package's directory.
const soakFile = "soak-results.json"

// soakResults mirrors the JSON the soak test writes.
type soakResults struct {
	Date     string `json:"date"`
	Machine  string `json:"machine"`
	Go       string `json:"go"`
	Clients  int    `json:"clients"`
	Sessions int    `json:"sessions"`
	Eras     []struct {
		Era      string  `json:"era"`
		Calls    int64   `json:"calls"`
		Errors   int64   `json:"errors"`
		Lost     int64   `json:"lost"`
		Seconds  float64 `json:"seconds"`
		CallsPer float64 `json:"callsPerSecond"`
	} `json:"eras"`
	SessionErrors   int64    `json:"sessionErrors"`
	SessionsPerS    float64  `json:"sessionsPerSecond"`
	LiveSessions    int      `json:"liveSessions"`
	GoroutinesWarm  int      `json:"goroutinesWarm"`
	GoroutinesAfter int      `json:"goroutinesAfter"`
	RSSWarm         int64    `json:"rssWarmBytes"`
	RSSAfter        int64    `json:"rssAfterBytes"`
	Pass            bool     `json:"pass"`
	Failures        []string `json:"failures"`
}

// readSoak reads the soak results in pkgDir; it returns nil, nil when
// there are none.
func readSoak(pkgDir string) (*soakResults, error) {
	b, err := os.ReadFile(filepath.Join(pkgDir, soakFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r soakResults
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", soakFile, err)
	}
	return &r, nil
}

// writeSoak writes the soak section of BENCHMARKS.md: what the last soak
// run measured, which is not part of the benchmark passes.
func writeSoak(w io.Writer, r *soakResults) error {
	if r == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString("\n## Soak\n\n")
	fmt.Fprintf(&b, "From bench/%s, written by the soak test (`GOMCP_SOAK=1 go test -run TestSoak ./bench`; sizes in bench/soak_test.go) "+
		"on %s (%s, %s), not by this run. Server and clients share one process; RSS and goroutines are the whole process's.\n\n", soakFile, r.Date, r.Machine, r.Go)
	status := "met"
	if !r.Pass {
		status = "NOT MET: " + strings.Join(r.Failures, "; ")
	}
	fmt.Fprintf(&b, "- **%s**: zero errors, zero lost responses, no goroutine growth, RSS back within 10%% of its warm level\n", status)
	b.WriteString("\n| phase | size | errors | lost | rate |\n|---|---|---|---|---|\n")
	for _, e := range r.Eras {
		fmt.Fprintf(&b, "| tools/call, %s, %d clients | %d calls | %d | %d | %.0f calls/s |\n", e.Era, r.Clients, e.Calls, e.Errors, e.Lost, e.CallsPer)
	}
	fmt.Fprintf(&b, "| legacy sessions opened, called, deleted | %d sessions | %d | – | %.0f sessions/s |\n", r.Sessions, r.SessionErrors, r.SessionsPerS)
	fmt.Fprintf(&b, "\nAfterwards: %d live sessions; goroutines %d warm, %d after; RSS %s warm, %s after.\n",
		r.LiveSessions, r.GoroutinesWarm, r.GoroutinesAfter, formatBytes(float64(r.RSSWarm)), formatBytes(float64(r.RSSAfter)))
	_, err := io.WriteString(w, b.String())
	return err
}
