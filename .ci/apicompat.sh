#!/usr/bin/env bash
# Fails when a released module's API changed incompatibly since the module's
# last release tag (RELEASING.md, "The API check").
#
# For each released module, the last tag (vX.Y.Z for the root module,
# DIR/vX.Y.Z for the module in DIR, highest version first): with none, the
# module has not been released and there is nothing to keep compatible, so
# it says so and passes. Otherwise the tagged tree is extracted to a
# temporary directory, and each public package the tag listed in api/
# (api/auth.txt is github.com/gomcp/sdk/auth) is compared with the working
# tree by apidiff (golang.org/x/exp/cmd/apidiff): any incompatible change,
# or a package that is gone, fails.
#
# Usage: bash .ci/apicompat.sh
# Environment (for the test, internal/apicheck TestCompatScript):
#   REPO     the repository (default: this one)
#   MODULES  the released modules' directories (default: go run ./internal/apicheck -released)
#   APIDIFF  the apidiff command (default: go run golang.org/x/exp/cmd/apidiff@$APIDIFF_VERSION)
set -euo pipefail
APIDIFF_VERSION=v0.0.0-20261113113407-e3970619a1a4
repo=$(cd "${REPO:-$(dirname "$0")/..}" && pwd)
cd "$repo"
modules=${MODULES:-$(go run ./internal/apicheck -released)}
apidiff=${APIDIFF:-go run golang.org/x/exp/cmd/apidiff@$APIDIFF_VERSION}
rootpath=$(go mod edit -json go.mod | sed -n 's/^[[:space:]]*"Path": "\(.*\)".*/\1/p' | head -1)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# last_tag DIR: the module's highest release tag, or nothing.
last_tag() {
  local prefix="" v
  [ "$1" = "." ] || prefix="$1/"
  v=$(git -C "$repo" tag -l "${prefix}v*" | sed "s#^${prefix}##" |
    { grep -E '^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$' || true; } | sort -V | tail -1)
  [ -z "$v" ] || echo "$prefix$v"
}

# module_of PKG: the released module directory holding the package whose
# path relative to the root module is PKG: the longest matching directory.
module_of() {
  local best="." m
  for m in $modules; do
    case "$1/" in
      "$m"/*) [ ${#m} -gt ${#best} ] && best=$m ;;
    esac
  done
  echo "$best"
}

status=0
for mod in $modules; do
  tag=$(last_tag "$mod")
  if [ -z "$tag" ]; then
    echo "module $mod: no release tag yet, so no API to keep compatible (the first release starts the check)"
    continue
  fi
  old="$tmp/${tag//\//_}"
  mkdir -p "$old"
  git -C "$repo" archive "$tag" | tar -x -C "$old"
  if [ ! -d "$old/api" ]; then
    echo "module $mod: $tag has no api/ directory to list its packages" >&2
    status=1; continue
  fi
  checked=0
  for f in $(cd "$old/api" && find . -name '*.txt' | sed 's#^\./##;s#\.txt$##' | sort); do
    [ "$(module_of "$f")" = "$mod" ] || continue
    pkg="$rootpath/$f"
    checked=$((checked + 1))
    (cd "$old/$mod" && $apidiff -w "$tmp/old.x" "$pkg")
    if [ ! -d "$repo/$f" ] || ! (cd "$repo/$mod" && $apidiff -w "$tmp/new.x" "$pkg" 2>"$tmp/err"); then
      echo "module $mod: package $pkg of $tag is gone or does not build (incompatible)" >&2
      [ -f "$tmp/err" ] && cat "$tmp/err" >&2
      status=1; continue
    fi
    report=$($apidiff -incompatible "$tmp/old.x" "$tmp/new.x")
    if [ -n "$report" ]; then
      echo "module $mod: incompatible changes to $pkg since $tag:" >&2
      echo "$report" >&2
      status=1
    fi
  done
  echo "module $mod: $checked packages compared with $tag"
done
exit $status
