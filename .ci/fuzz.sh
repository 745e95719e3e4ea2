#!/usr/bin/env bash
# Runs every fuzz target of every module in go.work briefly: a fixed number
# of inputs each (default 2000x), so the run ends by itself whatever the
# machine's load. A target that fails with a crashing input fails the run;
# a failure without one (the fuzzing engine's coordinator timing out on a
# loaded machine) is retried once.
# Usage: bash .ci/fuzz.sh [-fuzztime value]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-2000x}
modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for m in $modules; do
  (
    cd "$m"
    for pkg in $(go list ./...); do
      dir=$(go list -f '{{.Dir}}' "$pkg")
      for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
        echo "-- $pkg $target"
        for attempt in 1 2; do
          if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
            break
          fi
          if grep -q 'Failing input written' "$log" || [ "$attempt" = 2 ]; then
            cat "$log"; exit 1
          fi
          echo "   (no failing input; retrying once)"
        done
      done
    done
  )
done
