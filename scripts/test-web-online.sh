#!/usr/bin/env bash
# The online browser test (CI runs it): builds the cheap `web-ci` browser build and the game
# server, starts the server serving that build, and has two isolated browser contexts play each
# other through it in headless Chromium, with a reload in the middle of the game (details:
# web/test/online-test.mjs).
#
#   scripts/test-web-online.sh
#
# Needs: Debian's `chromium`, Node.js >= 18 with npm, and what scripts/build-web.sh needs.
# Output (screenshots of both pages, console and server log, report.json):
# $CARGO_TARGET_DIR/web-online-test/
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
# A folder of its own (not web/web-ci): on a machine where several checkouts share the build
# cache, another checkout's browser test may rebuild web/web-ci at the same time.
dist=$CARGO_TARGET_DIR/web/web-ci-online
out=$CARGO_TARGET_DIR/web-online-test

scripts/build-web.sh --ci --out "$dist"
# The build must be this checkout's (its online code), not another's sharing the cache.
if ! grep -q "online/seats.ron" "$dist"/b/*/boardcraft_bg.wasm; then
  echo "the built game in $dist has no online play (another checkout's build?); run again" >&2
  exit 1
fi
echo "== cargo build --profile ci -p boardcraft-server"
cargo build --profile ci -p boardcraft-server --bin boardcraft-server

# The test's npm packages (versions locked in web/test/package-lock.json).
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

rm -rf "$out"
node web/test/online-test.mjs --dist "$dist" --out "$out" \
  --server "$CARGO_TARGET_DIR/ci/boardcraft-server" --chromium "${CHROMIUM:-/usr/bin/chromium}"
echo "screenshots: $out/*.png (report: $out/report.json)"
