#!/usr/bin/env bash
# Resumes the attrition arm s-att-reach-big-lr (issue 30, session 56: s-att-reach's config with a
# 4x48 tower and the convolutional policy head, encoding version 2, from scratch; from step 11,900,
# generation 30, lr 0.002, written as lr_schedule = "piecewise", session 57; from generation 46,
# session 58, self-play with the root proof search, proof_nodes = -1; to 300 generations; stopped at
# generation 60: the model and the shipped one split every pair at 32 visits, session 58)
# in RUN_DIR (default /work/runs/s-att-reach-big-lr), from this snapshot when the folder does not
# exist (campaigns/run.sh), under the run's own resolved config.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-att-reach-big-lr}
exec bash campaigns/run.sh attrition-reach-big "$run" --config "$run/config.toml"
