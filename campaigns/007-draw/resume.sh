#!/usr/bin/env bash
# Resumes the 007 arm s-007-draw (issue 30, session 55: s-007-dead2 from generation 17 with
# search.draw_score = -0.2 in self-play) in RUN_DIR (default /work/runs/s-007-draw), from this
# snapshot when the folder does not exist (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-draw}
exec bash campaigns/run.sh 007-draw "$run" --config "$run/config.toml"
