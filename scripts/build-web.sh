#!/usr/bin/env bash
# Builds the browser version of the game into a folder any static web server can serve:
# index.html, boardcraft.js + boardcraft_bg.wasm (wasm-bindgen output) and assets/.
#
#   scripts/build-web.sh                  # size-optimised `web-release` build
#   scripts/build-web.sh --serve [PORT]   # … then serve it on http://127.0.0.1:PORT (8080)
#   scripts/build-web.sh --ci             # the cheap `web-ci` build the browser test uses
#   scripts/build-web.sh --out DIR        # output folder
#                                           (default: $CARGO_TARGET_DIR/web/<profile>)
#
# Needs: the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown) and
# wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock; the script
# installs the latter from crates.io into $HOME/.cache/boardcraft/tools if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=web-release
serve=
port=8080
out=
while [[ $# -gt 0 ]]; do
  case $1 in
    --ci) profile=web-ci ;;
    --serve)
      serve=1
      if [[ ${2:-} =~ ^[0-9]+$ ]]; then port=$2; shift; fi
      ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/boardcraft/target}
out=${out:-$CARGO_TARGET_DIR/web/$profile}

# --- tools
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
# The CLI and the crate must be the same version: the generated JS glue and the wasm's
# imports are versioned together.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [[ -z $wb_version ]]; then
  echo "wasm-bindgen is not in Cargo.lock" >&2
  exit 1
fi
tools=$HOME/.cache/boardcraft/tools
wasm_bindgen=$tools/bin/wasm-bindgen
if [[ ! -x $wasm_bindgen ]] || [[ $("$wasm_bindgen" --version) != "wasm-bindgen $wb_version" ]]; then
  echo "== installing wasm-bindgen-cli $wb_version into $tools"
  # Not --locked: the CLI's own lock file pins a crate this registry does not have.
  (unset CARGO_TARGET_DIR; cargo install wasm-bindgen-cli --version "$wb_version" --root "$tools" --force)
fi

# --- build
echo "== cargo build --profile $profile --target wasm32-unknown-unknown"
start=$(date +%s)
cargo build --profile "$profile" --target wasm32-unknown-unknown --bin boardcraft
echo "   built in $(( $(date +%s) - start )) s"
wasm=$CARGO_TARGET_DIR/wasm32-unknown-unknown/$profile/boardcraft.wasm

rm -rf "$out"
mkdir -p "$out"
"$wasm_bindgen" --no-typescript --target web --out-dir "$out" --out-name boardcraft "$wasm"
cp web/index.html "$out/"
cp -r assets "$out/assets"

raw=$(stat -c %s "$out/boardcraft_bg.wasm")
gz=$(gzip -9 -c "$out/boardcraft_bg.wasm" | wc -c)
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "== $out"
echo "   boardcraft_bg.wasm: $(mb "$raw") raw, $(mb "$gz") gzip -9 ($raw / $gz bytes, profile $profile)"

if [[ -n $serve ]]; then
  echo "== serving on http://127.0.0.1:$port/ (Ctrl+C stops)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
fi
