#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) once and runs each for a given time. See docs/fuzzing.md.
#
#   scripts/fuzz.sh <seconds-per-target> [target…]      (default: every target)
#
# The growing corpus is kept in .build/fuzz-corpus/<target> (outside git; the committed seeds in
# Fuzz/Seeds/<target> are read too); crashing inputs land in .build/fuzz-artifacts/<target>/. Minimise one
# with `Fuzz/.build/release/fuzz-<target> -minimize_crash=1 -runs=10000 <file>` and commit it under
# Fuzz/Regressions/<target>/ so FuzzRegressionTests replays it.
# Environment: FUZZ_RSS_MB (default 2048), FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_JOBS (parallel
# targets, default 1), FUZZ_SKIP_BUILD=1 to reuse the last build.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
all=(json model nmea gpsd multipart cache-entry headers filename path cli)

if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh <seconds-per-target> [target…]   targets: ${all[*]}" >&2
  exit 2
fi
seconds="$1"
shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all[@]}")
for target in "${targets[@]}"; do
  if [[ ! " ${all[*]} " =~ " $target " ]]; then
    echo "fuzz.sh: unknown target '$target' (targets: ${all[*]})" >&2
    exit 2
  fi
done

if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
  echo "fuzz.sh: building Fuzz/ (release, -sanitize=fuzzer,address)…" >&2
  (cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld) >&2
fi
bin="$root/Fuzz/.build/release"

run_one() {
  local target="$1"
  local corpus="$root/.build/fuzz-corpus/$target"
  local artifacts="$root/.build/fuzz-artifacts/$target"
  local log="$root/.build/fuzz-logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  local before
  before=$(find "$artifacts" -type f | wc -l)
  # Leak checks are off: the Swift runtime's metadata caches live until exit and are not findings. Swift's own
  # backtracer is off so that a trap reaches libFuzzer's handler (which saves the input) directly.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$bin/fuzz-$target" "$corpus" "$root/Fuzz/Seeds/$target" \
    -max_total_time="$seconds" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -timeout="${FUZZ_TIMEOUT:-10}" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 || true
  local execs cov ft crashes size
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  size=$(find "$corpus" -type f | wc -l)
  crashes=$(($(find "$artifacts" -type f | wc -l) - before))
  printf '%-12s %6ss  execs %-10s cov %-6s ft %-6s corpus %-6s crashes %s\n' \
    "$target" "$seconds" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$size" "$crashes"
  if [[ $crashes -gt 0 ]]; then
    grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)|Precondition failed' "$log" | sed 's/^/             /' || true
    find "$artifacts" -type f -newer "$log.start" 2>/dev/null | sed 's/^/             /' || true
  fi
}

jobs="${FUZZ_JOBS:-1}"
for target in "${targets[@]}"; do
  mkdir -p "$root/.build/fuzz-logs" && touch "$root/.build/fuzz-logs/$target.log.start"
  if [[ "$jobs" -gt 1 ]]; then
    run_one "$target" &
    while [[ $(jobs -rp | wc -l) -ge "$jobs" ]]; do wait -n; done
  else
    run_one "$target"
  fi
done
wait
