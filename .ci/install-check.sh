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
publish() { # publish DIR: writes the module in DIR to the temporary proxy
  (cd "$repo" && GOWORK= GOMODCACHE=$(go env GOMODCACHE) GOPROXY=$upstream \
    go run ./internal/modpublish -proxy "$tmp/proxy" -version "$version" "$1")
}
modpath() { # modpath DIR: the module path in DIR's go.mod
  (cd "$1" && go mod edit -json | sed -n 's/^[[:space:]]*"Path": "\(.*\)".*/\1/p' | head -1)
}
# require_released DIR: points DIR's requirements on this repository's
# modules at the version being released (RELEASING.md, step 3).
require_released() {
  for dep in $(cd "$1" && go mod edit -json | sed -n 's/^[[:space:]]*"Path": "\(github.com\/gomcp\/sdk[^"]*\)".*/\1/p' | sort -u); do
    [ "$dep" = "$(modpath "$1")" ] || (cd "$1" && go mod edit -require="$dep@$version")
  done
}
is_installable() {
  for entry in "${installable[@]}"; do [ "${entry%%:*}" = "$1" ] && return 0; done
  return 1
}
publish "$tmp/src"
# Library sub-modules first, so that the commands can require them.
for dir in $(GOWORK= go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p'); do
  case "$dir" in bench|examples/*) continue ;; esac
  is_installable "$dir" && continue
  require_released "$dir"
  publish "$tmp/src/$dir"
done
for entry in "${installable[@]}"; do
  dir=${entry%%:*} cmd=${entry#*:}
  [ -f "$dir/go.mod" ] || { echo "($dir: no such module yet, skipped)"; continue; }
  if grep -q '^replace\|^[[:space:]]*github.com/gomcp/sdk[^ ]* =>' "$dir/go.mod"; then
    echo "$dir/go.mod has a replace directive: go install $dir@latest would refuse it (see RELEASING.md)" >&2
    exit 1
  fi
  mod=$(modpath "$dir")
  require_released "$dir"
  (cd "$dir" && go mod tidy)
  publish "$tmp/src/$dir"
  path=$mod
  [ "$cmd" = "." ] || path="$mod/$cmd"
  (cd "$tmp" && GOBIN="$tmp/bin" go install "$path@$version")
  echo "installed $path@$version"
  run "$tmp/bin/$(basename "$path")"
done
echo "install check ok"
