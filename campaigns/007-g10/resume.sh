#!/usr/bin/env bash
# Resumes the 007 run s-007-g10 (issue 30, session 73: the shipped 8x64 grown to 10x96 with
# `vzero grow`, then its own loop: campaigns/007-b8's settings with a fixed 600,000-position window,
# lr 0.002 constant, 4 passes over each generation's games) in RUN_DIR (default /work/runs/s-007-g10),
# from this snapshot when the folder does not exist (campaigns/run.sh), under the run's own
# resolved config. Its replay window started with the shards of campaigns/007-mate (generations
# 41-44) and campaigns/007-open (46-49), renamed seed-*.h5; they are copied in again when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/s-007-g10}
[ -d "$run" ] || cp -r campaigns/007-g10 "$run"
mkdir -p "$run/shards"
for arm in mate open; do
  for f in campaigns/007-$arm/shards/*.h5; do
    [ -f "$run/shards/seed-$arm-$(basename "$f")" ] || cp "$f" "$run/shards/seed-$arm-$(basename "$f")"
  done
done
exec bash campaigns/run.sh 007-g10 "$run" --config "$run/config.toml"
