#!/usr/bin/env bash
# The evaluation checks (issue 13): UCI engines against a random player, an
# SPRT that must find H1 and one between equal players, and attrition's seat
# bias from the start position and from configs/openings/attrition.txt (with
# the ratings of all those games; records in $EVAL_OUT, default /tmp/vzero-eval).
# Usage: scripts/eval-acceptance.sh [uci|sprt|equal|attrition|multi]...  (default: all)
# EQUAL_RUNS (default 5) sets how many SPRTs between equal players "equal" runs.
set -euo pipefail
cd "$(dirname "$0")/.."
V=./build/cli/vzero
FSF=/usr/games/fairy-stockfish
run() { echo "== vzero arena $*"; $V arena "$@" 2>/dev/null | grep -Ev '^(games [0-9]+/)'; }
parts=("$@")
[ "${#parts[@]}" -gt 0 ] || parts=(uci sprt equal attrition multi)
for part in "${parts[@]}"; do
  case "$part" in
    uci)
      run --variant grand --a "uci:cmd=$FSF,depth=2" --b random --games 20 --threads 2
      run --variant chess --a "uci:cmd=$FSF,depth=2" --b random --games 20 --threads 2 ;;
    sprt)
      run --variant ascending --a mcts:sims=800,evaluator=heuristic --b mcts:sims=50,evaluator=heuristic \
        --sprt elo0=0,elo1=50 --games 2000 --threads 2 --openings configs/openings/ascending.txt ;;
    equal)
      for seed in $(seq 1 "${EQUAL_RUNS:-5}"); do
        run --variant ascending --a mcts:sims=50,evaluator=heuristic --b mcts:sims=50,evaluator=heuristic \
          --sprt elo0=0,elo1=50 --games 2000 --threads 2 --openings configs/openings/ascending.txt --seed "$seed" \
          | grep -E '^(games|sprt)'
      done ;;
    attrition)
      out=${EVAL_OUT:-/tmp/vzero-eval}
      mkdir -p "$out"
      rm -f "$out/attrition.jsonl"
      for pair in "mcts:sims=800,evaluator=rollout mcts:sims=200,evaluator=rollout" \
                  "mcts:sims=800,evaluator=heuristic mcts:sims=200,evaluator=rollout" \
                  "mcts:sims=800,evaluator=rollout mcts:sims=800,evaluator=heuristic"; do
        set -- $pair
        run --variant attrition --a "$1" --b "$2" --games 200 --threads 2 \
          --record "$out/attrition.jsonl" --match "start: $1 vs $2"
        run --variant attrition --a "$1" --b "$2" --games 200 --threads 2 --openings configs/openings/attrition.txt \
          --record "$out/attrition.jsonl" --match "openings: $1 vs $2"
      done
      echo "== vzero ratings $out/attrition.jsonl"
      $V ratings "$out/attrition.jsonl" ;;
    multi)
      for v in attrition-3p attrition-4p; do
        a=mcts:sims=800,evaluator=rollout b=mcts:sims=200,evaluator=rollout
        run --variant "$v" --a "$a" --b "$b" --games 240 --threads 2
        run --variant "$v" --a "$a" --b "$b" --games 240 --threads 2 --openings "configs/openings/$v.txt"
      done ;;
    *) echo "unknown part '$part'" >&2; exit 2 ;;
  esac
done
