#!/usr/bin/env bash
# Regenerates configs/openings/<variant>.txt: balanced openings chosen by
# measurement (docs/openings.md). Seeded, so a rerun with the same build writes the same files
# (a build whose search changed writes others: docs/openings.md).
# Usage: scripts/make-openings.sh [VARIANT...]   (default: all below)
# About 5 minutes on one core in all; attrition's self-play takes most.
# World chess has none: its heuristic is zero and random rollouts end in
# draws by the length cap, so no network-free search tells its openings apart.
set -euo pipefail
cd "$(dirname "$0")/.."
V=./build/cli/vzero
mkdir -p configs/openings
# variant: the options of `vzero openings` (see docs/openings.md for why these).
declare -A how=(
  [attrition]="--plies 2 --candidates 400 --keep 24 --sims 800 --evaluator rollout --games 4"
  [attrition-3p]="--plies 3 --candidates 120 --keep 24 --sims 800 --evaluator rollout --games 6"
  [attrition-4p]="--plies 4 --candidates 120 --keep 24 --sims 800 --evaluator rollout --games 6"
  [chess]="--plies 4 --candidates 200 --keep 40 --sims 3200 --evaluator heuristic"
  [grand]="--plies 4 --candidates 200 --keep 40 --sims 3200 --evaluator heuristic"
  [ascending]="--plies 4 --candidates 200 --keep 40 --sims 3200 --evaluator heuristic"
  [007]="--plies 6 --candidates 200 --keep 40 --sims 3200 --evaluator heuristic"
  [parachute]="--plies 4 --candidates 100 --keep 40 --sims 800 --evaluator rollout"
)
variants=("$@")
[ "${#variants[@]}" -gt 0 ] || variants=(attrition attrition-3p attrition-4p chess grand ascending 007 parachute)
for v in "${variants[@]}"; do
  [ -n "${how[$v]:-}" ] || { echo "no openings recipe for '$v'" >&2; exit 2; }
  echo "== $v" >&2
  # shellcheck disable=SC2086
  $V openings --variant "$v" ${how[$v]} --seed 1 > "configs/openings/$v.txt.tmp"
  mv "configs/openings/$v.txt.tmp" "configs/openings/$v.txt"
done
