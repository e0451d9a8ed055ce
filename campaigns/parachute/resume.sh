#!/usr/bin/env bash
# Starts or resumes the parachute run s-parachute (issue 30: configs/parachute.toml, starting
# from the shipped model models/parachute.pt, the same network) in RUN_DIR (default
# /work/runs/s-parachute), from this snapshot when the folder does not exist and a snapshot
# is here; the binary is VZERO (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-parachute}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || [ ! -f campaigns/parachute/metrics.csv ] || cp -r campaigns/parachute "$run"
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config configs/parachute.toml --run-dir "$run" --set 'loop.init_model="models/parachute.pt"'
