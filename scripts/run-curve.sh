#!/usr/bin/env bash
# The rating curve of a run folder after the fact, for runs that played no
# arenas (loop.arena_games = 0): each sampled generation plays the one before
# it and generation 0, paired random openings (both seat orders), then one
# Bradley-Terry fit over all those games with gen-000 = 0.
#   scripts/run-curve.sh RUN_DIR STEP [SIMS] [GAMES] [OPENING_PLIES]
# Samples generations 0, STEP, 2·STEP, … and the last one; SIMS playouts a
# move (default 100), GAMES a match (default 40), OPENING_PLIES random plies
# (default 2). Records go to RUN_DIR/curve-records/ (a rerun resumes them);
# the table to RUN_DIR/curve-ratings.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: scripts/run-curve.sh RUN_DIR STEP [SIMS] [GAMES] [OPENING_PLIES]}
step=${2:?usage: scripts/run-curve.sh RUN_DIR STEP [SIMS] [GAMES] [OPENING_PLIES]}
sims=${3:-100}
games=${4:-40}
plies=${5:-2}
vzero=${VZERO:-./build/cli/vzero}
variant=$(sed -n "s/^variant *= *['\"]\([^'\"]*\)['\"].*/\1/p" "$run/config.toml" | head -1)
[ -n "$variant" ] || { echo "run-curve.sh: no variant in $run/config.toml" >&2; exit 2; }
last=$(find "$run/models" -name 'gen-[0-9][0-9][0-9].pt' | sed 's/.*gen-0*\([0-9][0-9]*\)\.pt/\1/' | sort -n | tail -1)
[ -n "$last" ] || { echo "run-curve.sh: no gen-NNN.pt in $run/models" >&2; exit 2; }
gens=()
for ((g = 0; g < last; g += step)); do gens+=("$g"); done
gens+=("$last")
spec() { printf 'net:model=%s/models/gen-%03d.pt,sims=%s' "$run" "$1" "$sims"; }
mkdir -p "$run/curve-records"
prev=0
for g in "${gens[@]:1}"; do
  opponents=(0)
  [ "$prev" -gt 0 ] && opponents=("$prev" 0)
  for opp in "${opponents[@]}"; do
    out=$(printf '%s/curve-records/gen-%03d-vs-%03d.jsonl' "$run" "$g" "$opp")
    "$vzero" arena --variant "$variant" --a "$(spec "$g")" --b "$(spec "$opp")" --opening "$plies" \
      --games "$games" --threads "${THREADS:-1}" --seed "$g" --record "$out" | tail -1
  done
  prev=$g
done
"$vzero" ratings --anchor "$(spec 0)=0" --csv "$run/curve-ratings.csv" "$run"/curve-records/*.jsonl
