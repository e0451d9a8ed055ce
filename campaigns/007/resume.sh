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
# The run's own resolved config (session 40's 007 settings, written by its first start), so that
# the run goes on whatever configs/007.toml holds now.
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config "$run/config.toml" --run-dir "$run"
