#!/usr/bin/env bash
# The online browser test (CI runs it): builds the cheap `web-ci` browser build and the game
# server, starts the server serving that build, and has two isolated browser contexts play each
# other through it in headless Chromium, with a reload in the middle of the game (details:
# web/test/online-test.mjs). Then the lobby test: two strangers paired by quick pairing play,
# see their rating change and the game in their archives; a third challenges a bot
# (`boardcraft-cli online bot`) and the bot answers; the Lobby screen at 390×844 in English and
# Russian; three strangers at a three-seat table, one leaving (the server's computer takes its
# seat), to the places and rating changes (details: web/test/lobby-test.mjs).
#
#   scripts/test-web-online.sh                # both
#   scripts/test-web-online.sh --lobby        # only the lobby test
#   scripts/test-web-online.sh --dist DIR     # test the `web-ci` build already in DIR (CI's,
#                                               built once for every browser test) instead of
#                                               building one of its own
#
# Needs: Debian's `chromium`, Node.js >= 18 with npm, and what scripts/build-web.sh needs.
# Output (screenshots of both pages, console and server log, report.json):
# $CARGO_TARGET_DIR/web-online-test/
set -euo pipefail
only_lobby=
dist=
while [[ $# -gt 0 ]]; do
  case $1 in
    --lobby) only_lobby=1 ;;
    --dist) dist=$2; shift ;;
    *) echo "unknown option: $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
out=$CARGO_TARGET_DIR/web-online-test

if [[ -z $dist ]]; then
  # A folder of its own (not web/web-ci): on a machine where several checkouts share the build
  # cache, another checkout's browser test may rebuild web/web-ci at the same time.
  dist=$CARGO_TARGET_DIR/web/web-ci-online
  scripts/build-web.sh --ci --out "$dist"
fi
# The build must be this checkout's (its online code), not another's sharing the cache.
if ! grep -q "online/seats.ron" "$dist"/b/*/boardcraft_bg.wasm; then
  echo "the built game in $dist has no online play (another checkout's build?); run again" >&2
  exit 1
fi
echo "== cargo build --profile ci -p boardcraft-server"
cargo build --profile ci -p boardcraft-server --bin boardcraft-server
echo "== cargo build --profile ci -p boardcraft-cli"
cargo build --profile ci -p boardcraft-cli --bin boardcraft-cli

# The test's npm packages (versions locked in web/test/package-lock.json).
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

rm -rf "$out"
if [[ -z $only_lobby ]]; then
node web/test/online-test.mjs --dist "$dist" --out "$out" \
  --server "$CARGO_TARGET_DIR/ci/boardcraft-server" --chromium "${CHROMIUM:-/usr/bin/chromium}"
fi
node web/test/lobby-test.mjs --dist "$dist" --out "$out/lobby" \
  --server "$CARGO_TARGET_DIR/ci/boardcraft-server" --cli "$CARGO_TARGET_DIR/ci/boardcraft-cli" \
  --chromium "${CHROMIUM:-/usr/bin/chromium}"
echo "screenshots: $out/*.png, $out/lobby/*.png (reports: $out/report.json, $out/lobby/report.json)"
