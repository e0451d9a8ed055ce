#!/usr/bin/env bash
# Resumes the 007 arm s-007-open (issue 30, session 61): s-007-mate from generation 42 with every
# self-play game starting from 0-6 plies drawn near uniformly (selfplay.opening_plies = 6,
# opening_temperature = 100 on the priors), the yardstick's kind of position. RUN_DIR defaults to
# /work/runs/s-007-open; when it does not exist, this snapshot is copied there (campaigns/run.sh).
# Runs under the run's own resolved config; needs a build from 1a16adf on.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-open}
exec bash campaigns/run.sh 007-open "$run" --config "$run/config.toml"
