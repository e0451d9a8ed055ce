#!/usr/bin/env bash
# Starts or resumes the ascending run s-ascending (issue 30, configs/ascending.toml from scratch) in RUN_DIR
# (default /work/runs/s-ascending), from this snapshot when the folder does not exist and a snapshot
# is here; the binary is VZERO (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-ascending}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || [ ! -f campaigns/ascending/metrics.csv ] || cp -r campaigns/ascending "$run"
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config configs/ascending.toml --run-dir "$run"
