#!/usr/bin/env bash
# Resumes the attrition run s-att-reach (issue 30, session 56: the config of the model shipped until
# then, models/attrition.toml of session 55, with [model] encoding = 2, knight reach; to 100
# generations; its generation 62 ships) in RUN_DIR (default /work/runs/s-att-reach), from this
# snapshot when the folder does not exist (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-att-reach}
exec bash campaigns/run.sh attrition-reach "$run" --config "$run/config.toml"
