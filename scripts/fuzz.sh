#!/usr/bin/env bash
# Runs every fuzz target (cargo-fuzz, nightly toolchain) for a given number of seconds each.
#   scripts/fuzz.sh [seconds-per-target] [target…]
# New inputs go to fuzz/corpus/<target> (not committed); fuzz/seeds/<target> is the committed
# seed corpus. A crash leaves its input in fuzz/artifacts/<target> and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(variant_file notation legal_moves_are_legal)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  echo "== $t for ${secs}s"
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- -max_total_time="$secs" -print_final_stats=1 2>&1 \
    | grep -E "^(stat::|Done|==|SUMMARY|INFO: Seed)|panicked" || true
  # cargo fuzz exits non-zero on a crash; pipefail would hide which, so re-check artifacts.
  if compgen -G "fuzz/artifacts/$t/crash-*" >/dev/null; then
    echo "CRASH in $t: see fuzz/artifacts/$t"; exit 1
  fi
done
