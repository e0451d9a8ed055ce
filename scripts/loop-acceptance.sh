#!/usr/bin/env bash
# The learning checks of the loop (issue 8) for a run folder's newest model:
# 200 games each at 200 visits against generation 0, rollout search at the
# same visits and at 4x the visits, then the same two rollout matches again
# from balanced openings (two random placements shared by both seat orders).
# Usage: scripts/loop-acceptance.sh RUN_DIR [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: scripts/loop-acceptance.sh RUN_DIR [GAMES]}
GAMES=${2:-200}
V=./build/cli/vzero
MODEL=$(ls "$DIR"/models/gen-*.pt | sort | tail -1)
VARIANT=$(sed -n "s/^variant = ['\"]\(.*\)['\"]$/\1/p" "$DIR/config.toml")
NET="net:model=$MODEL,sims=200"
run() { echo "== $*"; $V arena --variant "$VARIANT" --a "$NET" "$@" --games "$GAMES" --threads 16 2>&1 | tail -2; }
echo "model $MODEL"
run --b "net:model=$DIR/models/gen-000.pt,sims=200"
run --b mcts:sims=200,evaluator=rollout
run --b mcts:sims=800,evaluator=rollout
run --b mcts:sims=200,evaluator=rollout --opening 2
run --b mcts:sims=800,evaluator=rollout --opening 2
