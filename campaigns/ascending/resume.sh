#!/usr/bin/env bash
# Starts or resumes the Ascending the Throne run s-ascending (issue 30: configs/ascending.toml from
# scratch) in RUN_DIR (default /work/runs/s-ascending), from this snapshot when there is one
# (campaigns/run.sh).
set -euo pipefail
run=${1:-/work/runs/s-ascending}
exec bash "$(dirname "$0")/../run.sh" ascending "$run" --config configs/ascending.toml
