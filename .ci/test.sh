#!/usr/bin/env bash
# Runs every test of every module in go.work with the race detector.
# This is the README's "run all tests" command.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
status=0
for m in $modules; do
  echo "-- $m"
  (cd "$m" && go test -race -count=1 ./...) || status=1
done
exit $status
