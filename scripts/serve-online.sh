#!/usr/bin/env bash
# The online server in one command: builds the browser game (scripts/build-web.sh) and the
# server (release), then starts the server serving the game and the games between people on
# one port.
#
#   scripts/serve-online.sh                    # http://127.0.0.1:8787/, SQLite in the data folder
#   scripts/serve-online.sh --listen 0.0.0.0:8787 --public-url http://my-host:8787
#   scripts/serve-online.sh --database postgres://user:password@localhost/boardcraft
#   scripts/serve-online.sh --ci               # the cheaper web-ci build of the game (tests)
#
# Every option but --ci goes to boardcraft-server (see `boardcraft-server --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
web_args=()
server_args=()
profile=web-release
while [[ $# -gt 0 ]]; do
  case $1 in
    --ci) web_args+=(--ci); profile=web-ci ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) server_args+=("$1") ;;
  esac
  shift
done

web=$CARGO_TARGET_DIR/web/$profile
scripts/build-web.sh "${web_args[@]}" --out "$web"
echo "== cargo build --release -p boardcraft-server"
cargo build --release -p boardcraft-server
exec "$CARGO_TARGET_DIR/release/boardcraft-server" --web "$web" "${server_args[@]}"
