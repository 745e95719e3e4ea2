#!/usr/bin/env bash
# Checks that the commands of the repository's sub-modules install as users
# install them. From a fresh clone of what is committed:
#   1. go install ./pkgdocs/cmd/pkgdocs (the workspace build) into a
#      temporary GOBIN, and run it;
#   2. the release of RELEASING.md, rehearsed on a module proxy in a
#      temporary directory: publish the root module, point each installable
#      sub-module at that version (go mod edit + go mod tidy, outside the
#      workspace), publish it, then
#      go install github.com/gomcp/sdk/pkgdocs/cmd/pkgdocs@VERSION
#      outside the repository, as a user would, and run it.
# go install MODULE@VERSION refuses modules whose go.mod has a replace
# directive, so step 2 fails if an installable sub-module has one.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# Modules that ship commands, and the command each one installs.
installable=("pkgdocs:cmd/pkgdocs" "cmd/gomcp:.")

git clone -q "$repo" "$tmp/src"
cd "$tmp/src"

# run BIN: prints the version if the command has a -version flag, else its
# usage; either way it must exit 0.
run() {
  if "$1" --help 2>&1 | grep -q -- '-version'; then
    "$1" --version
  else
    echo "(no -version flag yet: checking --help)"
    "$1" --help >/dev/null 2>&1
  fi
}

echo "-- workspace install"
GOBIN="$tmp/bin-workspace" go install ./pkgdocs/cmd/pkgdocs
run "$tmp/bin-workspace/pkgdocs"

echo "-- release rehearsal"
version="v0.0.0-ci.$(date +%s)"
upstream=$(go env GOPROXY)
cache=$(go env GOMODCACHE)/cache/download
export GOWORK=off GOFLAGS=-modcacherw GOMODCACHE="$tmp/modcache" GONOSUMDB=github.com/gomcp GOSUMDB=off
export GOPROXY="file://$tmp/proxy,file://$cache,$upstream"
(cd "$repo" && GOWORK= GOMODCACHE=$(go env GOMODCACHE) GOPROXY=$upstream go run ./internal/modpublish -proxy "$tmp/proxy" -version "$version" "$tmp/src")
for entry in "${installable[@]}"; do
  dir=${entry%%:*} cmd=${entry#*:}
  [ -f "$dir/go.mod" ] || { echo "($dir: no such module yet, skipped)"; continue; }
  if grep -q '^replace\|^[[:space:]]*github.com/gomcp/sdk[^ ]* =>' "$dir/go.mod"; then
    echo "$dir/go.mod has a replace directive: go install $dir@latest would refuse it (see RELEASING.md)"; exit 1
  fi
  mod=$(cd "$dir" && go mod edit -json | sed -n 's/^[[:space:]]*"Path": "\(.*\)".*/\1/p' | head -1)
  (cd "$dir" && go mod edit -require="github.com/gomcp/sdk@$version" && go mod tidy)
  (cd "$repo" && GOWORK= GOMODCACHE=$(go env GOMODCACHE) GOPROXY=$upstream go run ./internal/modpublish -proxy "$tmp/proxy" -version "$version" "$tmp/src/$dir")
  (cd "$tmp" && GOBIN="$tmp/bin" go install "$mod/$cmd@$version")
  bin="$tmp/bin/$(basename "$mod/$cmd" | sed 's/^\.$//')"
  [ "$cmd" = "." ] && bin="$tmp/bin/$(basename "$mod")"
  echo "installed $mod/$cmd@$version"
  run "$bin"
done
echo "install check ok"
