#!/usr/bin/env bash
# Resumes the 007 run s-007-dead2 (issue 30: s-007, session 40's 007 settings, then from generation
# 12 on with selfplay.end_dead_positions = true, session 48) in RUN_DIR (default
# /work/runs/s-007-dead2), from this snapshot when the folder does not exist (campaigns/run.sh),
# under the run's own resolved config, whatever configs/007.toml holds now.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-dead2}
init=/work/runs/ref/007-2.pt  # the first shipped 007 model, where the run started
mkdir -p "$(dirname "$init")"
[ -f "$init" ] || git show e7c4107:models/007.pt > "$init"
exec bash campaigns/run.sh 007 "$run" --config "$run/config.toml"
