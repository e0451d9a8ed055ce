#!/usr/bin/env bash
# One arm of the issue-27 learning ablation (docs/learning.md): a Los Alamos
# loop run from the shared bootstrap for a fixed wall-clock budget, then
# scored against the base arm and against Fairy-Stockfish at depth 1.
#   scripts/ablate-learning.sh BOOTSTRAP_RUN OUT_DIR HOURS [--set table.key=value ...]
#   scripts/ablate-learning.sh --score OUT_DIR BASE_DIR [CPU_HOURS]
# The run: the first generation's shards of BOOTSTRAP_RUN are copied into
# OUT_DIR (every arm learns from the same data), then `vzero loop --config
# configs/losalamos.toml` runs without its own matches until HOURS of wall
# clock have passed (`timeout`; the loop is killed, which it survives: the
# next call resumes it, and the last finished generation is the arm's
# model). --score plays the arm's model against the base arm's (400
# visits each, paired openings from 3 random plies with seats swapped, GSPRT
# elo0 0, elo1 50, at most 400 games, 2 threads) and against Fairy-Stockfish
# depth 1 (400 games), records in OUT_DIR/score-GEN-*.jsonl, and prints games,
# positions and hours from OUT_DIR/metrics.csv. Each arm's model is its
# last generation, or with CPU_HOURS the last one whose run had spent at most
# that many CPU hours (metrics.csv's cpu_seconds, summed): equal compute on a
# shared machine. Every random choice follows
# the config's seed and the fixed --seed below.
set -euo pipefail
cd "$(dirname "$0")/.."
vzero=${VZERO:-./build/cli/vzero}
config=${CONFIG:-configs/losalamos.toml}
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}

last_model() {  # the newest gen-NNN.pt of a run folder
  ls "$1"/models/gen-[0-9][0-9][0-9].pt 2>/dev/null | sort | tail -1
}

model_within() {  # RUN CPU_HOURS: the model of the last generation within CPU_HOURS of cpu_seconds
  local g
  g=$(awk -F, -v h="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
        { cpu += $col["cpu_seconds"]; if (cpu <= h * 3600) g = $col["generation"] }
        END { if (g != "") print g }' "$1/metrics.csv")
  [ -z "$g" ] || printf '%s/models/gen-%03d.pt\n' "$1" "$g"
}

if [ "${1:-}" = "--score" ]; then
  [ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 --score OUT_DIR BASE_DIR [CPU_HOURS]" >&2; exit 2; }
  out=$2 base=$3
  if [ $# -eq 4 ]; then
    arm_model=$(model_within "$out" "$4") base_model=$(model_within "$base" "$4")
  else
    arm_model=$(last_model "$out") base_model=$(last_model "$base")
  fi
  [ -n "$arm_model" ] && [ -n "$base_model" ] || { echo "$0: no models in $out or $base" >&2; exit 2; }
  echo "scoring $arm_model against $base_model" >&2
  arm_gen=$(basename "$arm_model" .pt) base_gen=$(basename "$base_model" .pt)
  "$vzero" arena --variant losalamos --a "net:model=$arm_model,sims=400" --b "net:model=$base_model,sims=400" \
    --opening 3 --games 400 --threads 2 --seed 27 --sprt elo0=0,elo1=50 --record "$out/score-$arm_gen-vs-base-$base_gen.jsonl"
  "$vzero" arena --variant losalamos --a "net:model=$arm_model,sims=400" --b "uci:cmd=$fsf,depth=1" \
    --opening 3 --games 400 --threads 2 --seed 28 --record "$out/score-$arm_gen-vs-fsf1.jsonl"
  awk -F, -v lim="$((10#${arm_gen#gen-}))" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
           $col["generation"] > lim { next }
           { games += $col["games"]; positions += $col["positions"]; seconds += $col["seconds"]
             cpu += $col["cpu_seconds"] }
           END { printf "up to generation %d: games %d positions %d hours %.2f cpu hours %.2f\n", lim, games,
                        positions, seconds / 3600, cpu / 3600 }' \
    "$out/metrics.csv"
  exit 0
fi

[ $# -ge 3 ] || { echo "usage: $0 BOOTSTRAP_RUN OUT_DIR HOURS [--set table.key=value ...]" >&2; exit 2; }
bootstrap=$1 out=$2 hours=$3
shift 3
case $hours in '' | *[!0-9.]*) echo "$0: HOURS must be a number, not '$hours'" >&2; exit 2 ;; esac
ls "$bootstrap"/shards/gen1-*.h5 > /dev/null 2>&1 || { echo "$0: no bootstrap shards in $bootstrap/shards" >&2; exit 2; }
mkdir -p "$out/shards"
for f in "$bootstrap"/shards/gen1-*.h5; do
  [ -e "$out/shards/$(basename "$f")" ] || cp "$f" "$out/shards/"
done
seconds=$(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')
status=0
timeout --signal=KILL "$seconds" "$vzero" loop --config "$config" --run-dir "$out" --set loop.generations=0 \
  --set loop.arena_games=0 --set loop.baseline_games=0 "$@" || status=$?
# 137: the budget ran out (the loop is killed at any moment and loses nothing).
[ "$status" -eq 0 ] || [ "$status" -eq 137 ] || exit "$status"
echo "arm $out: last model $(last_model "$out")"
