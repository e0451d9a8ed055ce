#!/usr/bin/env bash
# Installs the dependencies (and tests/onnx-js's npm packages), builds, runs
# the whole test suite (game core, search, shards, networks and exports,
# self-play, training and the smoke loop), then
# builds the LibTorch-free tests under AddressSanitizer + UBSan and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# onnxruntime-node for the ONNX check, from the lock file, without the CUDA binaries.
(cd tests/onnx-js && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
bash scripts/build.sh
ctest --test-dir build --output-on-failure
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVZERO_SANITIZE=ON
cmake --build build-asan -j "$(nproc)" --target game_tests mcts_tests shard_tests frontend_tests
ctest --test-dir build-asan --output-on-failure -L core -LE slow
