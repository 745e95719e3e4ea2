#!/usr/bin/env bash
# Runs every fuzz target of every module in go.work for a short time
# (default 3s each). Usage: bash .ci/fuzz.sh [duration]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-3s}
modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
for m in $modules; do
  (
    cd "$m"
    for pkg in $(go list ./...); do
      dir=$(go list -f '{{.Dir}}' "$pkg")
      for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
        echo "-- $pkg $target"
        go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/fuzz.log 2>&1 || { cat /tmp/fuzz.log; exit 1; }
      done
    done
  )
done
