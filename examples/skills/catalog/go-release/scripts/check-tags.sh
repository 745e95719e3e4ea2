#!/bin/sh
# Prints the tags a release of version $1 would create: the root module's,
# then one per sub-module found by go.work.
set -eu
version=${1:?usage: check-tags.sh vX.Y.Z}
echo "$version"
go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p' | while read -r dir; do
	echo "$dir/$version"
done
