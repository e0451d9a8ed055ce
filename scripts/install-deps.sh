#!/usr/bin/env bash
# Installs every Debian 12 package vzero needs to build, test and run. Idempotent.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
pkgs=(
  build-essential cmake ninja-build pkg-config git
  libtorch-dev libopenblas0-openmp
  libtbb-dev libhdf5-dev hdf5-tools libeigen3-dev
  catch2 libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libgloo-dev
  fairy-stockfish pgn-extract gnuplot-nox
  python3-torch python3-h5py python3-numpy
  libprotobuf-dev libonnx-dev python3-onnx
  libopenmpi-dev openmpi-bin
  clang libclang-rt-14-dev  # libFuzzer and the sanitizers: scripts/fuzz.sh, scripts/tsan.sh
  clang-format  # scripts/check-format.sh
  libcpp-httplib-dev  # vzero web's HTTP server (web/)
  chromium  # the browser test of vzero web (tests/web, driven by playwright-core)
  curl  # the web tests (tests/web_security.sh, tests/web_events.sh)
)
# Node.js and npm run the ONNX check (tests/onnx-js). A Node.js that already
# brings npm (e.g. from nodesource, which conflicts with Debian's npm) is kept.
command -v npm > /dev/null 2>&1 || pkgs+=(nodejs npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
