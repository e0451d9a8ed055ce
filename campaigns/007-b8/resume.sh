#!/usr/bin/env bash
# Resumes the 007 arm s-007-b8 (issue 30, session 63: an 8x64 network trained on the games of
# s-007-mate and s-007-open, then its own self-play with s-007-mate's settings) in RUN_DIR
# (default /work/runs/s-007-b8), from this snapshot when the folder does not exist
# (campaigns/run.sh), under the run's own resolved config. Needs a build from 1a16adf on.
# Stopped in session 64: its per-generation fine-tuning lost strength (campaigns/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-b8}
exec bash campaigns/run.sh 007-b8 "$run" --config "$run/config.toml"
