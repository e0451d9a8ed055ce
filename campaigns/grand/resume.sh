#!/usr/bin/env bash
# Resumes the Grand Chess run s-grand (issue 30, from scratch) in RUN_DIR (default
# /work/runs/s-grand), from this snapshot when the folder does not exist; the binary is VZERO
# (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-grand}
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || cp -r campaigns/grand "$run"
# The run's own resolved config (session 40's 007 settings, written by its first start), so that
# the run goes on whatever configs/grand.toml holds now.
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --config "$run/config.toml" --run-dir "$run"
