#!/usr/bin/env bash
# A local Boardcraft cluster for development and the failover test: PostgreSQL (started if it
# is not running), boardcraft-server nodes on loopback ports, and HAProxy in front
# (deploy/haproxy.cfg) — docs/online.md, "Several nodes".
#
#   scripts/cluster.sh start            # build the server, start everything; prints the URL
#   scripts/cluster.sh stop             # stop the nodes and HAProxy (PostgreSQL stays up)
#   scripts/cluster.sh status
#   scripts/cluster.sh kill-node N      # kill -9 node N (1-based)
#   scripts/cluster.sh start-node N     # start node N again
#
# Environment: NODES (3), BASE_PORT (9100: HAProxy on it, node N on BASE_PORT+N),
# CLUSTER_DIR (/tmp/boardcraft-cluster: pids, logs, HAProxy's config), CLUSTER_DATABASE
# (postgres://boardcraft:boardcraft@127.0.0.1/boardcraft_cluster, created if missing),
# NODE_ARGS (extra flags for every node), PROFILE (ci; release to benchmark), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
NODES=${NODES:-3}
BASE_PORT=${BASE_PORT:-9100}
CLUSTER_DIR=${CLUSTER_DIR:-/tmp/boardcraft-cluster}
CLUSTER_DATABASE=${CLUSTER_DATABASE:-postgres://boardcraft:boardcraft@127.0.0.1/boardcraft_cluster}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}"
# PROFILE=release for benchmarks (the ci profile does not optimise the server).
PROFILE=${PROFILE:-ci}
server="$CARGO_TARGET_DIR/$PROFILE/boardcraft-server"
# The bots of the failover test all come from one address: no per-address limits here.
NODE_ARGS=${NODE_ARGS:---max-connections-per-ip 0 --max-new-games-per-ip 0 --max-new-guests-per-ip 0}

postgres_up() {
  pg_isready -q -h 127.0.0.1 && return
  local v
  v=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_ctlcluster "$v" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
}

database_exists() {
  local db=${CLUSTER_DATABASE##*/}
  su postgres -c "psql -q -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'boardcraft'\" | grep -q 1 \
    || psql -q -c \"CREATE ROLE boardcraft LOGIN PASSWORD 'boardcraft'\""
  su postgres -c "psql -q -tAc \"SELECT 1 FROM pg_database WHERE datname = '$db'\" | grep -q 1 \
    || createdb -O boardcraft $db"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Whether GET /healthz on the port answers 200 (bash's /dev/tcp: no curl needed).
healthy() {
  ( exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET /healthz HTTP/1.0\r\nHost: cluster\r\n\r\n' >&3
    head -1 <&3 ) 2>/dev/null | grep -q ' 200 '
}

start_node() {
  local n=$1 port=$((BASE_PORT + $1))
  alive "$CLUSTER_DIR/node$n.pid" && return
  # shellcheck disable=SC2086
  "$server" --listen "127.0.0.1:$port" --database "$CLUSTER_DATABASE" \
    --trusted-proxy 127.0.0.1 --public-url "http://127.0.0.1:$BASE_PORT" $NODE_ARGS \
    >>"$CLUSTER_DIR/node$n.log" 2>&1 &
  echo $! >"$CLUSTER_DIR/node$n.pid"
  for _ in $(seq 1 100); do
    healthy "$port" && return
    sleep 0.1
  done
  echo "node $n did not start: see $CLUSTER_DIR/node$n.log" >&2
  return 1
}

kill_node() {
  local pidfile="$CLUSTER_DIR/node$1.pid"
  if alive "$pidfile"; then
    kill -9 "$(cat "$pidfile")"
    wait "$(cat "$pidfile")" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

start() {
  command -v haproxy >/dev/null || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 1; }
  mkdir -p "$CLUSTER_DIR"
  postgres_up
  database_exists
  cargo build --profile "$PROFILE" -p boardcraft-server --bin boardcraft-server
  for n in $(seq 1 "$NODES"); do start_node "$n"; done
  {
    cat deploy/haproxy.cfg
    for n in $(seq 1 "$NODES"); do echo "    server node$n 127.0.0.1:$((BASE_PORT + n))"; done
  } >"$CLUSTER_DIR/haproxy.cfg"
  if ! alive "$CLUSTER_DIR/haproxy.pid"; then
    BOARDCRAFT_LB_BIND="127.0.0.1:$BASE_PORT" haproxy -D -f "$CLUSTER_DIR/haproxy.cfg" \
      -p "$CLUSTER_DIR/haproxy.pid"
  fi
  for _ in $(seq 1 100); do
    healthy "$BASE_PORT" && break
    sleep 0.1
  done
  echo "cluster: http://127.0.0.1:$BASE_PORT ($NODES nodes on ports $((BASE_PORT + 1))–$((BASE_PORT + NODES)), database $CLUSTER_DATABASE, logs in $CLUSTER_DIR)"
}

stop() {
  for pidfile in "$CLUSTER_DIR"/node*.pid; do
    [ -e "$pidfile" ] || continue
    alive "$pidfile" && kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
  if alive "$CLUSTER_DIR/haproxy.pid"; then kill "$(cat "$CLUSTER_DIR/haproxy.pid")"; fi
  rm -f "$CLUSTER_DIR/haproxy.pid"
}

status() {
  for n in $(seq 1 "$NODES"); do
    if alive "$CLUSTER_DIR/node$n.pid"; then echo "node $n: up (pid $(cat "$CLUSTER_DIR/node$n.pid"), port $((BASE_PORT + n)))"; else echo "node $n: down"; fi
  done
  if alive "$CLUSTER_DIR/haproxy.pid"; then echo "haproxy: up (port $BASE_PORT)"; else echo "haproxy: down"; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  kill-node) kill_node "$2" ;;
  start-node) mkdir -p "$CLUSTER_DIR"; start_node "$2" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
