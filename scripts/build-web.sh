#!/usr/bin/env bash
# Builds the browser version of the game into a folder any static web server can serve:
#   index.html            the page (with the build manifest written into it)
#   sw.js                 the service worker: keeps the build for offline use
#   build.json            the build manifest: the build's hash, folder and file sizes
#   manifest.webmanifest  the web app manifest (install to the home screen), icons/
#   b/<hash>/             boardcraft.js + boardcraft_bg.wasm (wasm-bindgen output), assets/:
#                         named by the hash of their contents (scripts/package-web.py), so
#                         servers may let browsers keep them for a year
# and each compressible file with precompressed copies beside it (`F.br`, brotli; `F.gz`,
# gzip) for servers that send them with `Content-Encoding` (scripts/serve-web.py, the browser
# test's server, the game server's --web): measured (3 December 2026), the release wasm is
# 28.3 MB raw, 7.8 MB gzip -9, 4.94 MB brotli -q 11; every file of the page 5.11 MB over the
# wire, of which a load fetches 4.96 MB before the game's first frame. Serving it: index.html,
# sw.js and build.json with `Cache-Control: no-cache`, b/ with a long max-age (both servers do).
#
#   scripts/build-web.sh                  # size-optimised `web-release` build
#   scripts/build-web.sh --serve [PORT]   # … then serve it on http://127.0.0.1:PORT (8080)
#   scripts/build-web.sh --ci             # the cheap `web-ci` build the browser test uses
#   scripts/build-web.sh --out DIR        # output folder
#                                           (default: $CARGO_TARGET_DIR/web/<profile>)
#   scripts/build-web.sh --wasm-opt       # also run `wasm-opt -Oz` (npm binaryen 132); off by
#                                           default: it shrinks the raw file, not the wire size.
#                                           Measured 2 Dec 2026 with Debian's binaryen 108 on the
#                                           release wasm: 28.2 MB → 20.6 MB raw in 3.5 min, but
#                                           4.92 MB brotli -q 11 against 4.82 MB without it
#
# Needs: the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown) and
# wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock; the script
# installs the latter from crates.io into $HOME/.cache/boardcraft/tools if it is missing.
# Compression: gzip, and Debian's `brotli` (else Node's zlib); release files get the best
# (slow) settings, brotli -q 11 and gzip -9, the `--ci` build quick ones.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=web-release
serve=
wasm_opt=
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
    --wasm-opt) wasm_opt=1 ;;
    -h | --help) sed -n '2,32p' "$0"; exit 0 ;;
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
stage=$out/.stage
mkdir -p "$stage"
"$wasm_bindgen" --no-typescript --target web --out-dir "$stage" --out-name boardcraft "$wasm"
cp -r assets "$stage/assets"

if [[ -n $wasm_opt ]]; then
  # Binaryen from npm (Debian's binaryen 108 is too old for what rustc 1.95 emits). Bevy's
  # wasm uses bulk memory and non-trapping float-to-int conversions.
  echo "== wasm-opt -Oz (npm binaryen)"
  start=$(date +%s)
  (cd "$tools" && { [[ -x node_modules/.bin/wasm-opt ]] || npm install --no-audit --no-fund --loglevel=error --prefix "$tools" binaryen@132; })
  "$tools/node_modules/.bin/wasm-opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    -o "$stage/boardcraft_bg.opt.wasm" "$stage/boardcraft_bg.wasm"
  mv "$stage/boardcraft_bg.opt.wasm" "$stage/boardcraft_bg.wasm"
  echo "   wasm-opt took $(( $(date +%s) - start )) s"
fi

# --- the served layout: b/<hash>/, build.json, index.html, sw.js, the web app manifest
echo "== packaging"
python3 scripts/package-web.py "$stage" "$out"
build_dir=$out/$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["dir"])' "$out/build.json")

# --- precompressed copies: `F.br` and `F.gz` beside every compressible file, kept only when
# smaller. A server picks one by the request's Accept-Encoding and sends it with the matching
# Content-Encoding (and the original's Content-Type).
if [[ $profile == web-release ]]; then br_quality=11 gz_level=9; else br_quality=5 gz_level=6; fi
if command -v brotli >/dev/null; then
  brotli_file() { brotli -q "$br_quality" -f -o "$1.br" "$1"; }
elif command -v node >/dev/null; then
  echo "   (no brotli command: compressing with Node's zlib; Debian: apt-get install brotli)"
  brotli_file() {
    node -e '
      const fs = require("fs"), zlib = require("zlib");
      const [file, quality] = process.argv.slice(1);
      const data = fs.readFileSync(file);
      fs.writeFileSync(file + ".br", zlib.brotliCompressSync(data, { params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: Number(quality),
        [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));' "$1" "$br_quality"
  }
else
  echo "   (no brotli command and no Node: no .br files; Debian: apt-get install brotli)"
  brotli_file() { :; }
fi
echo "== precompressing (brotli -q $br_quality, gzip -$gz_level)"
start=$(date +%s)
while IFS= read -r -d '' file; do
  [[ $(stat -c %s "$file") -ge 1024 ]] || continue
  gzip -"$gz_level" -n -k -f "$file"
  brotli_file "$file"
  for packed in "$file.gz" "$file.br"; do
    if [[ -f $packed ]] && [[ $(stat -c %s "$packed") -ge $(stat -c %s "$file") ]]; then
      rm "$packed"
    fi
  done
done < <(find "$out" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.html' -o -name '*.ron' \
  -o -name '*.wav' -o -name '*.json' -o -name '*.webmanifest' \) -print0)
echo "   compressed in $(( $(date +%s) - start )) s"

size() { stat -c %s "$1" 2>/dev/null || echo 0; }
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }
wasm_out=${build_dir}boardcraft_bg.wasm
raw=$(size "$wasm_out") gz=$(size "$wasm_out.gz") br=$(size "$wasm_out.br")
# What a browser downloads for the page: every file's smallest form (brotli if there is one).
wire=0
while IFS= read -r -d '' file; do
  best=$(size "$file")
  for packed in "$file.br" "$file.gz"; do
    [[ -f $packed ]] && (( $(size "$packed") < best )) && best=$(size "$packed")
  done
  wire=$(( wire + best ))
done < <(find "$out" -type f ! -name '*.br' ! -name '*.gz' -print0)
echo "== $out (profile $profile)"
echo "   boardcraft_bg.wasm: $(mb "$raw") raw, $(mb "$gz") gzip -$gz_level, $(mb "$br") brotli -q $br_quality ($raw / $gz / $br bytes)"
echo "   the whole page (every file, brotli where smaller): $(mb "$wire") ($wire bytes)"

if [[ -n $serve ]]; then
  echo "== serving on http://127.0.0.1:$port/ (Ctrl+C stops)"
  exec python3 scripts/serve-web.py --port "$port" "$out"
fi
