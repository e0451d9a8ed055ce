#!/usr/bin/env bash
# Resumes the Grand Chess run s-grand (issue 30, from scratch) in RUN_DIR (default
# /work/runs/s-grand), from this snapshot when the folder does not exist (campaigns/run.sh), under
# the run's own resolved config (session 40's 007 settings), whatever configs/grand.toml holds now.
set -euo pipefail
run=${1:-/work/runs/s-grand}
exec bash "$(dirname "$0")/../run.sh" grand "$run" --config "$run/config.toml"
