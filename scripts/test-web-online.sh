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
dist=$CARGO_TARGET_DIR/web/web-ci
out=$CARGO_TARGET_DIR/web-online-test

scripts/build-web.sh --ci --out "$dist"
echo "== cargo build --profile ci -p boardcraft-server"
cargo build --profile ci -p boardcraft-server --bin boardcraft-server

# The test's npm packages (versions locked in web/test/package-lock.json).
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

rm -rf "$out"
node web/test/online-test.mjs --dist "$dist" --out "$out" \
  --server "$CARGO_TARGET_DIR/ci/boardcraft-server" --chromium "${CHROMIUM:-/usr/bin/chromium}"
echo "screenshots: $out/*.png (report: $out/report.json)"
