#!/usr/bin/env bash
# Builds the threaded tests with ThreadSanitizer in build-tsan/ (clang,
# -DVZERO_TSAN=ON) and runs them: the inference server (net_tests), the
# self-play generator (selfplay_tests), search and the arena (mcts_tests).
# LibTorch, TBB and libhdf5 are Debian's, not instrumented: tests/tsan.supp
# lists what that makes TSan misreport, each entry with its reason. Any other
# report fails the run. Not part of scripts/test.sh.
# usage: scripts/tsan.sh [CATCH_TEST_SPEC]   (default: every test)
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVZERO_TSAN=ON > /dev/null
cmake --build build-tsan -j "$(nproc)" --target mcts_tests selfplay_tests net_tests
export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1 second_deadlock_stack=1"
status=0
for t in mcts_tests selfplay_tests net_tests; do
  echo "== $t"
  "build-tsan/tests/$t" "$@" || status=1
done
exit $status
