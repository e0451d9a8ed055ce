#!/usr/bin/env bash
# Saves what a loop run needs to go on after its machine is lost, small enough for git:
#   scripts/snapshot-run.sh RUN_DIR DEST [SHARD_GENERATIONS]
# DEST (e.g. campaigns/losalamos-deeper) receives the run's config.toml, metrics.csv, ratings.csv,
# openings.txt, the match records, generation 0, the current model and the trainer's state
# (models/train.pt). The self-play shards only of the newest SHARD_GENERATIONS finished generations
# (default 0, about 5 MB a generation of 300 games), with those of one in progress: a run resumed
# from a snapshot (copy DEST to a new run folder and start the same `vzero loop` command on it)
# goes on from its current model and generation count with a replay window of those shards, which
# refills from its next games (a young run, whose window is a few generations, loses less with
# them). Scripts already in DEST (its resume.sh) are kept.
set -euo pipefail
usage="usage: scripts/snapshot-run.sh RUN_DIR DEST [SHARD_GENERATIONS]"
run=${1:?$usage}
dest=${2:?$usage}
keep=${3:-0}
[[ "$keep" =~ ^[0-9]+$ ]] || { echo "snapshot-run: SHARD_GENERATIONS must be a whole number, not '$keep'" >&2; exit 2; }
for f in config.toml metrics.csv models/gen-000.pt; do
  [ -f "$run/$f" ] || { echo "snapshot-run: $run/$f not found: not a loop run folder with a generation done" >&2; exit 1; }
done
# The current model's column, by name, from the header.
col=$(head -n 1 "$run/metrics.csv" | tr ',' '\n' | grep -n -x current_model | cut -d: -f1)
[ -n "$col" ] || { echo "snapshot-run: $run/metrics.csv has no current_model column" >&2; exit 1; }
current=$(tail -n 1 "$run/metrics.csv" | cut -d, -f"$col")
model=$(printf 'models/gen-%03d.pt' "$current")
[ -f "$run/$model" ] || { echo "snapshot-run: $run/$model (the current model) not found" >&2; exit 1; }
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/models" "$dest.tmp/records"
cp "$run/config.toml" "$run/metrics.csv" "$dest.tmp/"
for f in ratings.csv openings.txt curve.png; do [ -f "$run/$f" ] && cp "$run/$f" "$dest.tmp/"; done
cp "$run"/records/*.jsonl "$dest.tmp/records/" 2>/dev/null || true
cp "$run/models/gen-000.pt" "$run/$model" "$dest.tmp/models/"
[ -f "$run/models/train.pt" ] && cp "$run/models/train.pt" "$dest.tmp/models/"
# The shards (named genG-...h5 by the loop) of the newest finished generations, and those of a
# generation still in progress (its finished shards: a resume counts them as games played).
if [ "$keep" -gt 0 ] && [ -d "$run/shards" ]; then
  mkdir -p "$dest.tmp/shards"
  done_gens=$(tail -n 1 "$run/metrics.csv" | cut -d, -f1)
  for g in $(ls "$run/shards" | sed -n 's/^gen\([0-9][0-9]*\)-.*\.h5$/\1/p' | sort -n -u |
    awk -v done="$done_gens" -v keep="$keep" '$1 > done - keep'); do
    cp "$run/shards/gen$g-"*.h5 "$dest.tmp/shards/"
  done
fi
cp "$dest"/*.sh "$dest.tmp/" 2>/dev/null || true  # the snapshot's own scripts (resume.sh) stay
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "snapshot-run: $run -> $dest ($(($(wc -l < "$run/metrics.csv") - 1)) generations, current model gen-$current, $(du -sh "$dest" | cut -f1))"
