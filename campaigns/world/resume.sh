#!/usr/bin/env bash
# Starts or resumes the world run s-world (issue 30, configs/world.toml from scratch) in RUN_DIR
# (default /work/runs/s-world), from this snapshot when the folder does not exist and a snapshot
# is here; the binary is VZERO (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-world}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || [ ! -f campaigns/world/metrics.csv ] || cp -r campaigns/world "$run"
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config configs/world.toml --run-dir "$run"
