#!/usr/bin/env bash
# Reproduces one row of the README's strength table: a shipped model against
# its yardstick, paired openings with seats swapped, 2 threads, stopped by a
# GSPRT or after 400 games.
#   scripts/strength.sh VARIANT [extra arena options...]
# VARIANT is one of: attrition, ascending, losalamos. The record goes to
# runs/strength-VARIANT.jsonl (a rerun resumes from it).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: scripts/strength.sh attrition|ascending|losalamos [arena options...]}
shift
vzero=${VZERO:-./build/cli/vzero}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
case "$variant" in
  attrition)
    a="net:model=models/attrition.pt,sims=200"
    b="mcts:sims=3200,evaluator=rollout"
    openings=(--openings configs/openings/attrition.txt) ;;
  ascending)
    a="net:model=models/ascending.pt,sims=200"
    b="mcts:sims=800,evaluator=heuristic"
    openings=(--openings configs/openings/ascending.txt) ;;
  losalamos)
    a="net:model=models/losalamos.pt,sims=400"
    b="uci:cmd=$fsf,variant=losalamos,depth=${DEPTH:-2}"
    openings=(--opening 2) ;;
  *) echo "strength.sh: no strength row for variant '$variant' (attrition, ascending, losalamos)" >&2; exit 2 ;;
esac
[ -f "models/$variant.pt" ] || { echo "strength.sh: models/$variant.pt is missing" >&2; exit 2; }
mkdir -p runs
exec "$vzero" arena --variant "$variant" --a "$a" --b "$b" "${openings[@]}" --games 400 --threads 2 --seed 1 \
  --sprt elo0=0,elo1=50 --record "runs/strength-$variant${DEPTH:+-d$DEPTH}.jsonl" "$@"
