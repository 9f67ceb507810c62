#!/usr/bin/env bash
# The phone pictures of docs/screenshots/ (phone-*.png): the browser build in headless Chromium
# as a phone (390×844 upright and 844×390 sideways, device scale 2, touch), every screen the
# phone test checks, in English and Russian; the chosen ones are copied into docs/screenshots/,
# with the online game and the Lobby from the lobby browser test's pictures.
#
#   scripts/phone-screenshots.sh              # build the `web-ci` page, take and copy
#   scripts/phone-screenshots.sh --no-build   # use the page already built
#
# Needs what scripts/test-web.sh needs. All pictures: $CARGO_TARGET_DIR/phone-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
dist=$CARGO_TARGET_DIR/web/web-ci
[[ ${1:-} == --no-build ]] || scripts/build-web.sh --ci --out "$dist"
(cd web/test && npm ci --no-audit --no-fund --prefer-offline --loglevel=error)
out=$CARGO_TARGET_DIR/phone-screenshots
for lang in en ru; do
  # The test's checks run too; the pictures are wanted even where one fails.
  node web/test/phone-test.mjs --dist "$dist" --out "$out/$lang" --sizes 390x844,844x390 \
    --no-game --lang "$lang" --graphics full --chromium "${CHROMIUM:-/usr/bin/chromium}" || true
done
# docs/screenshots/phone-<screen>[-landscape][-ru].png
for lang in en ru; do
  suffix=$([[ $lang == en ]] && echo "" || echo "-$lang")
  for screen in menu race-3d race-2d focus-3d gipf-2d learn puzzle online settings; do
    [[ -f $out/$lang/390x844-$screen.png ]] && cp "$out/$lang/390x844-$screen.png" "docs/screenshots/phone-$screen$suffix.png"
  done
  for screen in menu race-3d gipf-3d puzzle; do
    [[ -f $out/$lang/844x390-$screen.png ]] && cp "$out/$lang/844x390-$screen.png" "docs/screenshots/phone-$screen-landscape$suffix.png"
  done
done
# The online game and the Lobby come from the lobby browser test's pictures
# (scripts/test-web-online.sh --lobby), when it has run.
lobby=$CARGO_TARGET_DIR/web-online-test/lobby
for pair in c-bot-game-390x844:phone-online-game c-bot-game-844x390:phone-online-game-landscape \
  lobby-play-390x844-en:phone-lobby lobby-play-390x844-ru:phone-lobby-ru \
  lobby-play-844x390-en:phone-lobby-landscape lobby-play-1280x800-en:lobby-en; do
  [[ -f $lobby/${pair%%:*}.png ]] && cp "$lobby/${pair%%:*}.png" "docs/screenshots/${pair#*:}.png"
done
ls -l docs/screenshots/phone-*.png
