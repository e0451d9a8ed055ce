#!/usr/bin/env bash
# Starts or resumes the World chess run s-world (issue 30: configs/world.toml from scratch) in
# RUN_DIR (default /work/runs/s-world), from this snapshot when there is one (campaigns/run.sh).
set -euo pipefail
run=${1:-/work/runs/s-world}
exec bash "$(dirname "$0")/../run.sh" world "$run" --config configs/world.toml
