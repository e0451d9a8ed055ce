#!/usr/bin/env bash
# Resumes the 007 arm s-007-mate (issue 30, session 59: s-007-draw from generation 22 with every
# search knowing a mate within the chooser's turn, ChessState::solved_returns) in RUN_DIR (default
# /work/runs/s-007-mate), from this snapshot when the folder does not exist (campaigns/run.sh),
# under the run's own resolved config. Needs a build from 1a16adf on.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-mate}
exec bash campaigns/run.sh 007-mate "$run" --config "$run/config.toml"
