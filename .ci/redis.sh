#!/usr/bin/env bash
# Scale-out against a real Redis: installs redis-server from Debian's
# packages when missing, starts it on a free 127.0.0.1 port with persistence
# off, then
#   1. runs the redis module's tests against it (GOMCP_REDIS_ADDR): the
#      store and bus contract tests and the 3-instance scenarios (first the
#      webhook registry's on a one-node Redis Cluster, GOMCP_REDIS_CLUSTER_ADDR);
#   2. runs the conformance server suites (conformance/run.sh, runs
#      server-2025 server-2026 server-all) against 3 everything-server
#      instances sharing that Redis behind a round-robin proxy
#      (conformance/scaleout), expecting the same results as one instance.
# Redis is stopped at the end, however the script ends.
#   bash .ci/redis.sh            # both
#   SKIP_CONFORMANCE=1 bash .ci/redis.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"

if ! command -v redis-server >/dev/null; then
  echo "== installing redis-server (apt-get)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

# A free port: bind :0, read the port, release it.
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
  go run "$REPO/.ci/freeport.go")"
DIR="$(mktemp -d)"
redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --dir "$DIR" >"$DIR/redis.log" 2>&1 &
REDIS_PID=$!
stop_redis() {
  kill "$REDIS_PID" 2>/dev/null || true
  wait "$REDIS_PID" 2>/dev/null || true
  rm -rf "$DIR"
}
trap stop_redis EXIT
trap 'stop_redis; exit 130' INT TERM
for _ in $(seq 1 50); do
  redis-cli -p "$PORT" ping 2>/dev/null | grep -q PONG && break
  sleep 0.1
done
redis-cli -p "$PORT" ping | grep -q PONG || { echo "redis.sh: redis-server did not start:"; cat "$DIR/redis.log"; exit 1; }
echo "== redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') on 127.0.0.1:$PORT"

# The webhook registry on a one-node Redis Cluster (all 16384 slots on it):
# a command over keys of two slots fails there (CROSSSLOT) as on any cluster.
echo "== webhook registry on a one-node Redis Cluster"
freeport() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
    go run "$REPO/.ci/freeport.go"
}
CPORT="$(freeport)"
BUSPORT="$(freeport)" # explicit (Redis 7): port+10000 may be past 65535
CDIR="$(mktemp -d)"
redis-server --port "$CPORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --dir "$CDIR" \
  --cluster-enabled yes --cluster-port "$BUSPORT" --cluster-config-file "$CDIR/nodes.conf" >"$CDIR/redis.log" 2>&1 &
CLUSTER_PID=$!
stop_cluster() {
  kill "$CLUSTER_PID" 2>/dev/null || true
  wait "$CLUSTER_PID" 2>/dev/null || true
  rm -rf "$CDIR"
}
trap 'stop_cluster; stop_redis' EXIT
trap 'stop_cluster; stop_redis; exit 130' INT TERM
for _ in $(seq 1 50); do
  redis-cli -p "$CPORT" ping 2>/dev/null | grep -q PONG && break
  sleep 0.1
done
redis-cli -p "$CPORT" cluster addslots $(seq 0 16383) >/dev/null
for _ in $(seq 1 100); do
  redis-cli -p "$CPORT" cluster info 2>/dev/null | grep -q 'cluster_state:ok' && break
  sleep 0.1
done
redis-cli -p "$CPORT" cluster info | grep -q 'cluster_state:ok' || { echo "redis.sh: the one-node cluster did not start:"; cat "$CDIR/redis.log"; exit 1; }
(cd redis && GOMCP_REDIS_CLUSTER_ADDR="127.0.0.1:$CPORT" go test -race -count=1 -run 'TestWebhookRegistryCluster' -v .)
stop_cluster
trap stop_redis EXIT
trap 'stop_redis; exit 130' INT TERM

echo "== redis module tests against it"
(cd redis && GOMCP_REDIS_ADDR="127.0.0.1:$PORT" go test -race -count=1 ./...)

# pkgdocs instances sharing packages through Redis (--redis): three
# instances behind a round-robin balancer, concurrent first requests, and
# Redis taken away mid-run (through a proxy the test takes down).
echo "== pkgdocs team-server tests against it"
(cd pkgdocs && GOMCP_REDIS_ADDR="127.0.0.1:$PORT" go test -race -count=1 -run 'TestTeam' ./cmd/pkgdocs)

if [ -n "${SKIP_CONFORMANCE:-}" ]; then
  exit 0
fi
echo "== conformance server suites through a round-robin proxy in front of 3 instances"
CACHE="${CONFORMANCE_CACHE:-$REPO/.cache/conformance}"
mkdir -p "$CACHE/bin"
go build -o "$CACHE/bin/scaleout" ./conformance/scaleout
go build -o "$CACHE/bin/everything-server" ./conformance/everything-server
KEY="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
EVERYTHING_SERVER="$CACHE/bin/scaleout" \
  SCALEOUT_SERVER="$CACHE/bin/everything-server" \
  SCALEOUT_FLAGS="-redis redis://127.0.0.1:$PORT/0 -state-key $KEY" \
  CONFORMANCE_RESULTS="$REPO/conformance/results-scaleout" \
  RUNS="server-2025 server-2026 server-all" \
  bash conformance/run.sh
