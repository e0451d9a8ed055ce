#!/usr/bin/env bash
# Installs the dependencies, builds, runs the whole test suite, then builds the
# LibTorch-free game-core tests under AddressSanitizer + UBSan and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVZERO_SANITIZE=ON
cmake --build build-asan -j "$(nproc)" --target game_tests
ctest --test-dir build-asan --output-on-failure -L core -LE slow
