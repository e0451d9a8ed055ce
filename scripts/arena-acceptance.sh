#!/usr/bin/env bash
# The search's strength checks (issue 5): each line ends with
# "score S wins W draws D losses L elo E +- M" for player A.
set -euo pipefail
cd "$(dirname "$0")/.."
V=./build/cli/vzero
run() { echo "== $*"; $V arena "$@" --threads 2 2>&1 | tail -2; }
run --variant attrition --a mcts:sims=400 --b random --games 40
run --variant ascending --a mcts:sims=400 --b random --games 20
run --variant attrition --a mcts:sims=800,evaluator=heuristic --b mcts:sims=100,evaluator=heuristic --games 200
run --variant ascending --a mcts:sims=800,evaluator=heuristic --b mcts:sims=100,evaluator=heuristic --games 200
run --variant attrition-3p --a mcts:sims=800,evaluator=heuristic --b mcts:sims=100,evaluator=heuristic --games 150
run --variant attrition --a mcts:sims=400,batch=8,evaluator=heuristic --b mcts:sims=400,batch=1,evaluator=heuristic --games 400
