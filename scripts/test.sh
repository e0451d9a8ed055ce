#!/usr/bin/env bash
# Installs the dependencies (and the npm packages of tests/onnx-js and tests/web), checks the
# formatting, builds, checks the include direction, runs
# the whole test suite (game core, search, shards, networks and exports,
# self-play, training and the smoke loop), then
# builds the LibTorch-free tests under AddressSanitizer + UBSan and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# onnxruntime-node for the ONNX check, from the lock file, without the CUDA binaries.
(cd tests/onnx-js && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
# playwright-core for the browser test of vzero web, from the lock file; it drives Debian's chromium
# (no browser download).
(cd tests/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
# The code's shape: every C++ file formatted, every include pointing down the library graph.
bash scripts/check-format.sh
bash scripts/build.sh
/usr/bin/python3 scripts/check-includes.py build
ctest --test-dir build --output-on-failure
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVZERO_SANITIZE=ON
cmake --build build-asan -j "$(nproc)" --target game_tests mcts_tests shard_tests frontend_tests
ctest --test-dir build-asan --output-on-failure -L core -LE slow
