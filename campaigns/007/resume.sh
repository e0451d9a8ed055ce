#!/usr/bin/env bash
# Resumes the 007 run s-007 (issue 30) in RUN_DIR (default /work/runs/s-007), from this snapshot
# when the folder does not exist; the binary is VZERO (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
init=/work/runs/ref/007-2.pt  # the first shipped 007 model, where the run started
mkdir -p "$(dirname "$init")"
[ -f "$init" ] || git show e7c4107:models/007.pt > "$init"
[ -d "$run" ] || cp -r campaigns/007 "$run"
source campaigns/deep-settings.sh
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config configs/007.toml --run-dir "$run" \
 --set loop.generations=0 --set "loop.init_model=\"$init\"" --set 'inference.form="int8"' --set model.blocks=4 --set model.filters=48 --set model.value_hidden=64 --set 'model.policy_head="conv"' \
 --set train.window_positions=200000 "${deep_settings[@]}"
