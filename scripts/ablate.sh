#!/usr/bin/env bash
# One arm of a learning ablation: a loop run from a shared bootstrap.
#   scripts/ablate.sh CONFIG BOOTSTRAP_RUN OUT_DIR GENERATIONS [--set table.key=value ...]
# Copies the first generation's shards (the network-free bootstrap) of
# BOOTSTRAP_RUN into OUT_DIR, so every arm starts from the same data, then runs
# `vzero loop` for GENERATIONS generations with the overrides and without
# in-loop arenas (the arms are compared afterwards, e.g. with
# `vzero arena --sprt ...` against a common opponent). Restarting it resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
config=$1 bootstrap=$2 out=$3 generations=$4
shift 4
vzero=${VZERO:-./build/cli/vzero}
mkdir -p "$out/shards"
for f in "$bootstrap"/shards/gen1-*.h5; do
  [ -e "$out/shards/$(basename "$f")" ] || cp "$f" "$out/shards/"
done
"$vzero" loop --config "$config" --run-dir "$out" --set loop.generations="$generations" \
  --set loop.arena_games=0 --set loop.baseline_games=0 "$@"
