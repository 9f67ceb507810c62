#!/usr/bin/env bash
# Runs the fuzz targets (cargo-fuzz, nightly toolchain) for a given number of seconds each and
# prints libFuzzer's figures per target.
#   scripts/fuzz.sh [seconds-per-target] [target…]        (default: 30 s, every target)
# New inputs go to fuzz/corpus/<target> (git-ignored); fuzz/seeds/<target> is the committed
# seed corpus, which crates/rules/tests/fuzz_seeds.rs also replays on stable. A crash leaves
# its input in fuzz/artifacts/<target>/ and fails the script; reproduce it with
#   cargo +nightly fuzz run -s none <target> fuzz/artifacts/<target>/crash-…
# or add it to fuzz/seeds/<target>/ and run the stable test.
#
# Build choices: no sanitizer (`-s none`): the crates under test have no `unsafe`, so
# AddressSanitizer would only slow the search; debug assertions and overflow checks stay on
# (cargo-fuzz's default). `legal_moves_are_legal` is built without comparison tracing: its
# bytes only pick moves, so tracing comparisons (70 % of its time) buys nothing; it builds in
# a target directory of its own so that the two flavours do not rebuild each other.
# Environment: FUZZ_TARGET_DIR (default ~/.cache/boardcraft/fuzz-target), FUZZ_JOBS (cargo -j),
# FUZZ_SINGLE_BUILD=1 (one build flavour for every target: CI's short runs, where a second cold
# build would cost more than the speed it buys).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(variant_file notation legal_moves_are_legal save_file protocol_message)
fi

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz.sh: no nightly toolchain (cargo-fuzz needs one): rustup toolchain install nightly" >&2
  exit 2
fi
tools="$HOME/.cache/boardcraft/tools"
export PATH="$tools/bin:$PATH"
if ! command -v cargo-fuzz >/dev/null; then
  echo "installing cargo-fuzz into $tools"
  cargo install cargo-fuzz --locked --root "$tools"
fi

target_dir="${FUZZ_TARGET_DIR:-$HOME/.cache/boardcraft/fuzz-target}"
# cargo-fuzz has no --jobs option; cargo reads the limit from the environment.
[ -n "${FUZZ_JOBS:-}" ] && export CARGO_BUILD_JOBS="$FUZZ_JOBS"
logs="$(mktemp -d)"
status=0
printf '%-24s %8s %8s %12s %8s %10s %8s %8s\n' target seconds "CPU s" execs exec/s "exec/CPU s" corpus crashes > "$logs/summary"
for t in "${targets[@]}"; do
  flags=(-s none)
  dir="$target_dir"
  if [ "$t" = legal_moves_are_legal ] && [ -z "${FUZZ_SINGLE_BUILD:-}" ]; then
    flags+=(--no-trace-compares)
    dir="$target_dir-nocmp"
  fi
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  echo "== $t: building"
  cargo +nightly fuzz build "${flags[@]}" --target-dir "$dir" "$t" 2>&1 | grep -vE '^\s+(Compiling|Checking)' || true
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  echo "== $t: fuzzing for ${secs}s"
  start=$(date +%s)
  # cargo fuzz exits non-zero on a crash; the artifact count below says which target failed.
  # The CPU seconds (user + system) say what the run got on a machine shared with other work.
  TIMEFORMAT='%U %S'
  { time cargo +nightly fuzz run "${flags[@]}" --target-dir "$dir" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$secs" -timeout=10 -print_final_stats=1 > "$logs/$t.log" 2>&1 || true; } 2> "$logs/$t.cpu"
  took=$(( $(date +%s) - start ))
  cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$logs/$t.cpu")
  grep -E '^(stat::|Done|==[0-9]+==|SUMMARY)|panicked|INITED' "$logs/$t.log" || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log")
  corpus=$(find "fuzz/corpus/$t" "fuzz/seeds/$t" -type f | wc -l)
  crashes=$(( $(find "fuzz/artifacts/$t" -type f | wc -l) - before ))
  if [ "$crashes" -gt 0 ] || [ -z "$execs" ]; then
    echo "FAILED: $t (see fuzz/artifacts/$t and the log below)"
    tail -n 40 "$logs/$t.log"
    status=1
  fi
  per_cpu=-
  [ -n "$execs" ] && [ "${cpu:-0}" -gt 0 ] && per_cpu=$(( execs / cpu ))
  printf '%-24s %8s %8s %12s %8s %10s %8s %8s\n' "$t" "$took" "$cpu" "${execs:--}" "${rate:--}" "$per_cpu" "$corpus" "$crashes" >> "$logs/summary"
done
echo
cat "$logs/summary"
rm -rf "$logs"
exit "$status"
