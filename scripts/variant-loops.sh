#!/usr/bin/env bash
# Every variant's run config starts: `vzero loop` for two generations on each
# configs/<variant>.toml, shortened (GAMES self-play games per generation, no
# arenas), then one line per variant with the self-play positions/s of each
# generation (bootstrap search, then the network) from metrics.csv.
#   scripts/variant-loops.sh [OUT_DIR] [GAMES]      (default runs/variant-loops, 40)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs/variant-loops}
games=${2:-40}
vzero=${VZERO:-./build/cli/vzero}
mkdir -p "$out"
printf '%-22s %10s %14s %14s %8s\n' variant games gen1_pos/s gen2_pos/s seconds
for config in configs/*.toml; do
  name=$(basename "$config" .toml)
  case "$name" in smoke | first-hour) continue ;; esac  # not a variant's own config
  run="$out/$name"
  start=$(date +%s)
  if ! "$vzero" loop --config "$config" --run-dir "$run" --set loop.generations=2 \
      --set loop.bootstrap_games="$games" --set selfplay.games="$games" \
      --set loop.arena_games=0 --set loop.baseline_games=0 > "$run.log" 2>&1; then
    echo "$name: loop failed (see $run.log)" >&2
    exit 1
  fi
  # metrics.csv columns: generation, games, positions, selfplay_pos_per_s, ...
  rates=$(awk -F, 'NR > 1 { printf "%s ", $4 }' "$run/metrics.csv")
  read -r first second _ <<< "$rates"
  printf '%-22s %10s %14s %14s %8s\n' "$name" "$games" "${first:-?}" "${second:-?}" "$(($(date +%s) - start))"
done
