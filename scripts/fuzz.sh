#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, ASan + UBSan) in build-fuzz/
# and runs each for SECONDS (default 60), starting from its seed corpus
# fuzz/corpus/<target>/ and what earlier runs kept in build-fuzz/corpus/.
# Prints the executions of each target; a crash, leak, timeout (an input
# slower than 10 s: a hang) or memory blow-up (over 2 GB) fails the target,
# its input kept in build-fuzz/findings/<target>/. FUZZ_JOBS=N runs N
# targets at once (default 1); FUZZ_RUNS=N stops a target after N executions
# (SECONDS is then the limit). Not part of scripts/test.sh.
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g" -DVZERO_FUZZ=ON > /dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzzers
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^vzero_fuzzer(\(fuzz_[a-z_]*\) .*/\1/p' fuzz/CMakeLists.txt)
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"

# Runs one target for the given seconds; prints "target executions verdict".
run_target() {
  local t=$1 dir=build-fuzz
  mkdir -p "$dir/corpus/$t" "$dir/findings/$t" "$dir/logs"
  local log="$dir/logs/$t.log" verdict=ok
  "$dir/fuzz/$t" -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/findings/$t/" "$dir/corpus/$t" "fuzz/corpus/$t" > "$log" 2>&1 || verdict="FAILED (see $log)"
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%-22s %12s executions  %s\n' "$t" "${runs:-0}" "$verdict"
  [ "$verdict" = ok ]
}

status=0
jobs=${FUZZ_JOBS:-1}
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then  # a slot frees when any target ends
    wait -n || status=1
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
for ((; running > 0; running--)); do wait -n || status=1; done
exit $status
