#!/usr/bin/env bash
# Configures and builds vzero in build/ (Release). Extra arguments go to cmake,
# e.g. -DTorch_DIR=/path/to/libtorch/share/cmake/Torch for another LibTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$(nproc)"
