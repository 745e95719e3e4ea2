#!/usr/bin/env bash
# Scale-out against real Redis deployments: installs redis-server from
# Debian's packages when missing, then on each of
#   - one Redis (persistence off),
#   - a Redis Cluster of three primaries (redis-server --cluster-enabled
#     yes, joined by redis-cli --cluster create; appendonly, so that a
#     restarted node keeps its data),
#   - one Redis watched by one Sentinel,
# all on free 127.0.0.1 ports:
#   1. runs the redis module's tests against it (GOMCP_REDIS_ADDR,
#      GOMCP_REDIS_CLUSTER, GOMCP_REDIS_SENTINEL): the store and bus
#      contract tests and the 3-instance scenarios (on one Redis also the
#      pkgdocs team-server tests and everything-server's two-instance
#      events test); on the cluster also the webhook
#      registry's cluster test (GOMCP_REDIS_CLUSTER_ADDR) and
#      TestClusterNodeRestart, which restarts each primary in turn
#      (GOMCP_REDIS_RESTART names the restart-node script written here);
#   2. runs the conformance server suites (conformance/run.sh) against 3
#      everything-server instances sharing it (-redis, -redis-cluster,
#      -redis-sentinel) behind a round-robin proxy (conformance/scaleout),
#      expecting the same results as one instance: server-2025,
#      server-2026 and server-all on one Redis and on the cluster,
#      server-all through Sentinel.
# Every Redis process is stopped at the end, by its PID, however the
# script ends.
#   bash .ci/redis.sh                    # everything
#   SKIP_CONFORMANCE=1 bash .ci/redis.sh # the Go tests only
#   TOPOLOGIES="single cluster" bash .ci/redis.sh
#   GOTESTFLAGS="-v -run TestClusterNodeRestart" TOPOLOGIES=cluster SKIP_CONFORMANCE=1 bash .ci/redis.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"
TOPOLOGIES="${TOPOLOGIES:-single cluster sentinel}"

if ! command -v redis-server >/dev/null; then
  echo "== installing redis-server (apt-get)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

DIR="$(mktemp -d)"
PIDFILES=() # of the daemonized redis-server and sentinel processes
REDIS_PID=""
stop_redis() {
  if [ -n "$REDIS_PID" ]; then
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
  fi
  local f pid
  for f in "${PIDFILES[@]}"; do
    [ -f "$f" ] || continue
    pid="$(cat "$f" 2>/dev/null || true)"
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for f in "${PIDFILES[@]}"; do # wait until they are gone
    pid="$(cat "$f" 2>/dev/null || true)"
    for _ in $(seq 1 50); do
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  done
  rm -rf "$DIR"
}
trap stop_redis EXIT
trap 'stop_redis; exit 130' INT TERM

# free_port: a free 127.0.0.1 port whose cluster bus port (+10000) is free
# too.
free_port() {
  local p
  for _ in $(seq 1 20); do
    p="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
      go run "$REPO/.ci/freeport.go")"
    if [ "$p" -lt 55000 ] && ! (echo >"/dev/tcp/127.0.0.1/$((p + 10000))") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  echo "redis.sh: no free port pair found" >&2
  return 1
}

# wait_ping PORT: waits until the Redis on PORT answers.
wait_ping() {
  for _ in $(seq 1 100); do
    redis-cli -p "$1" ping 2>/dev/null | grep -q PONG && return 0
    sleep 0.1
  done
  echo "redis.sh: nothing answers on port $1" >&2
  return 1
}

# conformance NAME RUNS FLAGS...: the conformance server suites RUNS
# through a round-robin proxy in front of 3 instances started with FLAGS.
conformance() {
  local name="$1" runs="$2"
  shift 2
  [ -z "${SKIP_CONFORMANCE:-}" ] || return 0
  echo "== conformance ($runs) through a round-robin proxy in front of 3 instances on ${name:-one Redis}"
  local cache="${CONFORMANCE_CACHE:-$REPO/.cache/conformance}" key
  mkdir -p "$cache/bin"
  go build -o "$cache/bin/scaleout" ./conformance/scaleout
  go build -o "$cache/bin/everything-server" ./conformance/everything-server
  key="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  EVERYTHING_SERVER="$cache/bin/scaleout" \
    SCALEOUT_SERVER="$cache/bin/everything-server" \
    SCALEOUT_FLAGS="$* -state-key $key" \
    CONFORMANCE_RESULTS="$REPO/conformance/results-scaleout${name:+-$name}" \
    RUNS="$runs" \
    bash conformance/run.sh
}

single() {
  local port
  port="$(free_port)"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --dir "$DIR" >"$DIR/redis.log" 2>&1 &
  REDIS_PID=$!
  wait_ping "$port" || { cat "$DIR/redis.log"; exit 1; }
  echo "== redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') on 127.0.0.1:$port"
  echo "== redis module tests against it"
  (cd redis && GOMCP_REDIS_ADDR="127.0.0.1:$port" go test -race -count=1 ${GOTESTFLAGS:-} ./...)
  # pkgdocs instances sharing packages through Redis (--redis): three
  # instances behind a round-robin balancer, concurrent first requests, and
  # Redis taken away mid-run (through a proxy the test takes down).
  echo "== pkgdocs team-server tests against it"
  (cd pkgdocs && GOMCP_REDIS_ADDR="127.0.0.1:$port" go test -race -count=1 -run 'TestTeam' ./cmd/pkgdocs)
  # everything-server's test.tick shared by two instances: poll, push
  # stream and webhook delivery across them.
  echo "== everything-server events tests against it"
  (cd conformance/everything-server && GOMCP_REDIS_ADDR="127.0.0.1:$port" go test -race -count=1 -run 'TestTickScaleOut' .)
  # results-scaleout, as before the other topologies
  local flags="-redis redis://127.0.0.1:$port/0"
  conformance "" "server-2025 server-2026 server-all" $flags
  kill "$REDIS_PID" 2>/dev/null || true
  wait "$REDIS_PID" 2>/dev/null || true
  REDIS_PID=""
}

# start_node PORT ARGS...: starts a daemonized redis-server on PORT with
# its own directory, config file (kept for restarts) and PID file.
start_node() {
  local port="$1"
  shift
  mkdir -p "$DIR/$port"
  {
    echo "port $port"
    echo "bind 127.0.0.1"
    echo "dir $DIR/$port"
    echo "daemonize yes"
    echo "pidfile $DIR/$port/redis.pid"
    echo "logfile $DIR/$port/redis.log"
    echo 'save ""'
    local a
    for a in "$@"; do echo "$a"; done
  } >"$DIR/$port/redis.conf"
  PIDFILES+=("$DIR/$port/redis.pid")
  redis-server "$DIR/$port/redis.conf"
  wait_ping "$port" || { cat "$DIR/$port/redis.log"; exit 1; }
}

cluster() {
  local ports=() p
  for _ in 1 2 3; do
    p="$(free_port)"
    ports+=("$p")
    # A node down for less than cluster-node-timeout is not failed over
    # (there are no replicas anyway); the others serve their slots
    # meanwhile (cluster-require-full-coverage no).
    start_node "$p" "cluster-enabled yes" "cluster-config-file nodes.conf" "cluster-node-timeout 5000" \
      "cluster-require-full-coverage no" "appendonly yes" "appendfsync always"
  done
  redis-cli --cluster create "127.0.0.1:${ports[0]}" "127.0.0.1:${ports[1]}" "127.0.0.1:${ports[2]}" \
    --cluster-replicas 0 --cluster-yes >"$DIR/cluster-create.log" 2>&1 || { cat "$DIR/cluster-create.log"; exit 1; }
  for p in "${ports[@]}"; do
    for _ in $(seq 1 100); do
      redis-cli -p "$p" cluster info 2>/dev/null | grep -q 'cluster_state:ok' && break
      sleep 0.1
    done
    redis-cli -p "$p" cluster info | grep -q 'cluster_state:ok' || { echo "redis.sh: the cluster is not ok on $p"; exit 1; }
  done
  # restart-node HOST:PORT: shuts a node down (its data written to its
  # append-only file) and starts it again with its config, returning once
  # it serves and sees the cluster ok.
  cat >"$DIR/restart-node" <<EOF
#!/usr/bin/env bash
set -euo pipefail
port="\${1##*:}"
conf="$DIR/\$port/redis.conf"
[ -f "\$conf" ] || { echo "restart-node: no node on port \$port" >&2; exit 2; }
pid="\$(cat "$DIR/\$port/redis.pid")"
redis-cli -p "\$port" shutdown >/dev/null 2>&1 || true
for _ in \$(seq 1 100); do kill -0 "\$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "\$pid" 2>/dev/null; then echo "restart-node: \$port did not stop" >&2; exit 1; fi
redis-server "\$conf"
for _ in \$(seq 1 200); do
  redis-cli -p "\$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok' && exit 0
  sleep 0.05
done
echo "restart-node: \$port is not back in the cluster" >&2
exit 1
EOF
  chmod +x "$DIR/restart-node"
  local url="redis://127.0.0.1:${ports[0]}?addr=127.0.0.1:${ports[1]}&addr=127.0.0.1:${ports[2]}"
  echo "== Redis Cluster of 3 primaries on ${ports[*]}"
  echo "== redis module tests against it (each primary restarted in TestClusterNodeRestart)"
  # GOMCP_REDIS_CLUSTER_ADDR: the webhook registry's cluster test
  (cd redis && GOMCP_REDIS_CLUSTER="$url" GOMCP_REDIS_CLUSTER_ADDR="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}" \
    GOMCP_REDIS_RESTART="$DIR/restart-node" go test -race -count=1 ${GOTESTFLAGS:-} ./...)
  conformance cluster "server-2025 server-2026 server-all" -redis-cluster "$url"
}

sentinel() {
  local master s
  master="$(free_port)"
  start_node "$master" "appendonly no"
  s="$(free_port)"
  mkdir -p "$DIR/$s"
  {
    echo "port $s"
    echo "bind 127.0.0.1"
    echo "dir $DIR/$s"
    echo "daemonize yes"
    echo "pidfile $DIR/$s/sentinel.pid"
    echo "logfile $DIR/$s/sentinel.log"
    echo "sentinel monitor mymaster 127.0.0.1 $master 1"
  } >"$DIR/$s/sentinel.conf"
  PIDFILES+=("$DIR/$s/sentinel.pid")
  redis-server "$DIR/$s/sentinel.conf" --sentinel
  for _ in $(seq 1 100); do
    redis-cli -p "$s" sentinel get-master-addr-by-name mymaster 2>/dev/null | grep -q "$master" && break
    sleep 0.1
  done
  redis-cli -p "$s" sentinel get-master-addr-by-name mymaster | grep -q "$master" || { cat "$DIR/$s/sentinel.log"; exit 1; }
  local url="redis://127.0.0.1:$s?master_name=mymaster"
  echo "== Redis on $master watched by a Sentinel on $s"
  echo "== redis module tests through the Sentinel"
  (cd redis && GOMCP_REDIS_SENTINEL="$url" go test -race -count=1 ${GOTESTFLAGS:-} ./...)
  conformance sentinel "server-all" -redis-sentinel "$url"
}

for t in $TOPOLOGIES; do
  case "$t" in
  single | cluster | sentinel) "$t" ;;
  *) echo "redis.sh: unknown topology $t (single, cluster, sentinel)" >&2; exit 2 ;;
  esac
done
