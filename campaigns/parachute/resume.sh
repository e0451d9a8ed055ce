#!/usr/bin/env bash
# Resumes the Parachute run s-parachute-cap (issue 30: s-parachute, configs/parachute.toml from the
# first Parachute model, then from generation 11 on with train.capped_value = "root", session 49) in
# RUN_DIR (default /work/runs/s-parachute-cap), from this snapshot when the folder does not exist
# (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-parachute-cap}
exec bash campaigns/run.sh parachute "$run" --config "$run/config.toml"
