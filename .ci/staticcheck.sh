#!/usr/bin/env bash
# Runs staticcheck (honnef.co/go/tools) with its default checks on every
# module of go.work; any finding fails. A deliberate exception carries a
# //lint:ignore CHECK reason comment on the line before it (uses of the
# protocol's own deprecated features: roots, sampling and logging to the
# client, SEP-2577; the legacy era, SEP-2575), or a //lint:file-ignore in an
# example about a deprecated feature, where a comment per line would show in
# the docs that quote it.
# Usage: bash .ci/staticcheck.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# 2026.2.2: the newest release, built with and supporting the go of go.mod.
version=v0.8.2
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" GOWORK=off GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$version"
modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
status=0
for m in $modules; do
  echo "-- $m"
  (cd "$m" && "$bin/staticcheck" ./...) || status=1
done
exit $status
