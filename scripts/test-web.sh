#!/usr/bin/env bash
# The browser test (CI runs it): builds the cheap `web-ci` browser build, opens it in headless
# Chromium and checks that the game starts, draws the board, reads its options from the URL,
# plays moves and logs no error (details: web/test/browser-test.mjs).
#
#   scripts/test-web.sh
#
# Needs: Debian's `chromium`, Node.js >= 18 with npm, and what scripts/build-web.sh needs.
# Output (screenshots, console log, report.json): $CARGO_TARGET_DIR/web-test/
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
dist=$CARGO_TARGET_DIR/web/web-ci
out=$CARGO_TARGET_DIR/web-test

scripts/build-web.sh --ci --out "$dist"

# The test's two npm packages (versions locked in web/test/package-lock.json).
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

rm -rf "$out"
node web/test/browser-test.mjs --dist "$dist" --out "$out" --chromium "${CHROMIUM:-/usr/bin/chromium}"
echo "screenshots: $out/ugolki.png $out/gipf.png (report: $out/report.json)"
