#!/usr/bin/env bash
# Installs the dependencies, builds and runs the main job: a short real
# training loop on Chivalrous Attrition with the default config (three
# generations: a rollout-search bootstrap, then the network's own games),
# printing its progress; the run folder holds metrics.csv and curve.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/cli/vzero loop --config configs/attrition.toml --run-dir runs/attrition-main --set loop.generations=3
echo "metrics: runs/attrition-main/metrics.csv, learning curve: runs/attrition-main/curve.png"
