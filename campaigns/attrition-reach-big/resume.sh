#!/usr/bin/env bash
# Resumes the attrition arm s-att-reach-big (issue 30, session 56: s-att-reach's config with a 4x48
# tower and the convolutional policy head, encoding version 2, 100 generations from scratch) in
# RUN_DIR (default /work/runs/s-att-reach-big), from this snapshot when the folder does not exist
# (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-att-reach-big}
exec bash campaigns/run.sh attrition-reach-big "$run" --config "$run/config.toml"
