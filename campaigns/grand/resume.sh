#!/usr/bin/env bash
# Resumes the Grand Chess run s-grand (issue 30, from scratch) in RUN_DIR (default
# /work/runs/s-grand), from this snapshot when the folder does not exist; the binary is VZERO
# (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-grand}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || cp -r campaigns/grand "$run"
source campaigns/deep-settings.sh
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config configs/grand.toml --run-dir "$run" \
 --set loop.generations=0 --set 'inference.form="int8"' --set model.blocks=5 --set model.filters=48 --set model.value_hidden=64 --set 'model.policy_head="conv"' \
 --set train.window_positions=300000 "${deep_settings[@]}"
