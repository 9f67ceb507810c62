#!/usr/bin/env bash
# The browser test (CI runs it): builds the cheap `web-ci` browser build, opens it in headless
# Chromium and checks that the game starts, draws the board and its panel in every screenshot,
# shows the game's moves, reads its options from the URL, plays moves (by touch too), opens the
# menu without options, arrives precompressed and logs no error (details:
# web/test/browser-test.mjs). It also measures page load → first frame of the `web-ci` build.
# Then the offline test (the page starts without a network and picks up a new build:
# web/test/offline-test.mjs), the Telegram test (a Mini App, its theme worn by the game:
# web/test/telegram-test.mjs) and the phone test (web/test/phone-test.mjs): screens at phone
# and tablet sizes (panels inside the viewport, the board never under a panel, no clipped
# text, buttons a tap wide) and a pinch; by default its quick part (`--ci`: the menu, a 3D
# game and Settings at 390x844 and 844x390, and a pinch; what CI runs), with --phone-full all
# five sizes and a whole game played by taps (~15 min on a 2-core machine). All on the
# same `web-ci` build.
#
#   scripts/test-web.sh                     # the test (CI), the phone test's quick part
#   scripts/test-web.sh --phone-full        # … with the whole phone and tablet test
#   scripts/test-web.sh --scenarios touch   # only some scenarios (names in browser-test.mjs)
#   scripts/test-web.sh --no-build          # test the build already there
#   scripts/test-web.sh --no-phone          # without the phone test
#   scripts/test-web.sh --release [RUNS]    # measure the size-optimised `web-release` build
#                                             instead: load → first frame, RUNS times (3) on
#                                             loopback, at 10 Mbit/s and at 10 Mbit/s with
#                                             100 ms latency, bytes on the wire
#                                             (a web-release build takes ~10 min of CPU)
#
# Needs: Debian's `chromium`, Node.js >= 18 with npm, and what scripts/build-web.sh needs.
# Output (screenshots, console log, report.json): $CARGO_TARGET_DIR/web-test/ (web-test-release/)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}

release=
runs=3
test_args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --release)
      release=1
      if [[ ${2:-} =~ ^[0-9]+$ ]]; then runs=$2; shift; fi
      ;;
    --scenarios) test_args+=(--scenarios "$2"); shift ;;
    --no-build) no_build=1 ;; # test what is already built
    --phone) ;; # the phone test's CI part runs by default now; kept for old command lines
    --phone-full) phone_full=1 ;;
    --no-phone) no_phone=1 ;;
    -h | --help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [[ -n $release ]]; then
  dist=$CARGO_TARGET_DIR/web/web-release
  out=$CARGO_TARGET_DIR/web-test-release
  [[ -n ${no_build:-} ]] || scripts/build-web.sh --out "$dist"
  test_args+=(--load-runs "$runs" --throttle-mbps 10,10@100)
else
  dist=$CARGO_TARGET_DIR/web/web-ci
  out=$CARGO_TARGET_DIR/web-test
  [[ -n ${no_build:-} ]] || scripts/build-web.sh --ci --out "$dist"
fi

# The test's two npm packages (versions locked in web/test/package-lock.json).
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)

rm -rf "$out"
node web/test/browser-test.mjs --dist "$dist" --out "$out" --chromium "${CHROMIUM:-/usr/bin/chromium}" \
  "${test_args[@]}"
if [[ -z $release ]]; then
  # Installable and offline (service worker, new builds); inside Telegram (a stub WebApp).
  node web/test/offline-test.mjs --dist "$dist" --out "$out" --chromium "${CHROMIUM:-/usr/bin/chromium}"
  node web/test/telegram-test.mjs --dist "$dist" --out "$out" --chromium "${CHROMIUM:-/usr/bin/chromium}"
fi
echo "output: $out/ (screenshots, report.json, console.log)"
if [[ -z $release && -z ${no_phone:-} ]]; then
  start=$(date +%s)
  phone_args=(--ci)
  [[ -z ${phone_full:-} ]] || phone_args=()
  node web/test/phone-test.mjs --dist "$dist" --out "$out/phone" --chromium "${CHROMIUM:-/usr/bin/chromium}" \
    "${phone_args[@]}"
  echo "phone test output: $out/phone/ ($(( $(date +%s) - start )) s)"
fi
