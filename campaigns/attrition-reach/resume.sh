#!/usr/bin/env bash
# Resumes the attrition run s-att-reach-lr (issue 30: session 56's s-att-reach, the config of the
# model shipped until then with [model] encoding = 2, knight reach, its generation 62 shipped; from
# generation 64 on lr 0.002, written as lr_schedule = "piecewise", session 57, whose generation 110
# ships; to 300 generations) in RUN_DIR (default /work/runs/s-att-reach-lr), from this snapshot
# when the folder does not exist (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-att-reach-lr}
exec bash campaigns/run.sh attrition-reach "$run" --config "$run/config.toml"
