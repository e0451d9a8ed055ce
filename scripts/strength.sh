#!/usr/bin/env bash
# Reproduces one row of the README's strength table: a shipped model against
# its yardstick, paired openings with seats swapped, 2 threads, stopped by a
# GSPRT (elo0 0, elo1 50) or after 400 games.
#   scripts/strength.sh VARIANT [extra arena options...]
# VARIANT is one of: losalamos, ascending, attrition, 007, world, parachute,
# grand. The yardsticks are those of the strength issue:
#   losalamos  model at 400 visits vs Fairy-Stockfish at DEPTH (default 3), or
#              at MOVETIME ms a move when MOVETIME is set (the equal-time row);
#              3 random plies
#   ascending  model at 200 visits vs heuristic search at 800, its openings file
#   attrition  model at 32 visits vs rollout search at 3,200, its openings file
#   007, world, parachute, grand
#              model at 200 visits vs heuristic search at 800, the variant's
#              openings file (world: 3 random plies)
# SIMS and OPPONENT override the model's visits and the opponent's spec (for
# the ladder rows). FIXED=N plays a second, fixed-length sample instead: N
# games from seed 2 with no SPRT (an early GSPRT stop overstates the score, so
# a bar on the score wants one too). The record goes to runs/strength-VARIANT[-TAG]-MODEL.jsonl
# (a rerun resumes from it), TAG naming what was overridden and MODEL the
# first 8 hex digits of the model's sha256 (a newly shipped model starts anew).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/strength.sh losalamos|ascending|attrition|007|world|parachute|grand [arena options...]"
variant=${1:?$usage}
shift
vzero=${VZERO:-./build/cli/vzero}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
heuristic800="mcts:sims=800,evaluator=heuristic"
tag=""
case "$variant" in
  losalamos)
    sims=400 openings=(--opening 3)
    if [ -n "${MOVETIME:-}" ]; then
      b="uci:cmd=$fsf,variant=losalamos,movetime=$MOVETIME" tag="-movetime$MOVETIME"
    else
      b="uci:cmd=$fsf,variant=losalamos,depth=${DEPTH:-3}" tag="-d${DEPTH:-3}"
    fi ;;
  ascending) sims=200 b=$heuristic800 openings=(--openings configs/openings/ascending.txt) ;;
  attrition) sims=32 b="mcts:sims=3200,evaluator=rollout" openings=(--openings configs/openings/attrition.txt) ;;
  007 | parachute | grand) sims=200 b=$heuristic800 openings=(--openings "configs/openings/$variant.txt") ;;
  world) sims=200 b=$heuristic800 openings=(--opening 3) ;;
  *) echo "strength.sh: no strength row for variant '$variant'; $usage" >&2; exit 2 ;;
esac
[ -n "${OPPONENT:-}" ] && b=$OPPONENT tag="-$(printf '%s' "$OPPONENT" | tr -c 'A-Za-z0-9=' '_')"
[ -n "${SIMS:-}" ] && sims=$SIMS tag="$tag-sims$SIMS"
[ -f "models/$variant.pt" ] || { echo "strength.sh: models/$variant.pt is missing (no shipped model yet)" >&2; exit 2; }
test=(--games 400 --seed 1 --sprt elo0=0,elo1=50)
if [ -n "${FIXED:-}" ]; then
  [[ "$FIXED" =~ ^[1-9][0-9]*$ ]] || { echo "strength.sh: FIXED must be a positive number of games, not '$FIXED'" >&2; exit 2; }
  test=(--games "$FIXED" --seed 2) tag="$tag-fixed$FIXED"
fi
model_id=$(sha256sum "models/$variant.pt" | cut -c1-8)
mkdir -p runs
exec "$vzero" arena --variant "$variant" --a "net:model=models/$variant.pt,sims=$sims" --b "$b" "${openings[@]}" \
  --threads 2 "${test[@]}" --record "runs/strength-$variant$tag-$model_id.jsonl" "$@"
