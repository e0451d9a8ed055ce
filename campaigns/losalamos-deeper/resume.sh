#!/usr/bin/env bash
# Resumes the Los Alamos run la-deeper (issue 27) in RUN_DIR (default /work/runs/la-deeper), from
# this snapshot when the folder does not exist (campaigns/run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-/work/runs/la-deeper}
ref=/work/runs/ref/losalamos-old.pt  # the 30,300-game model, the run's anchor
mkdir -p "$(dirname "$ref")"
[ -f "$ref" ] || git show 5f621e3:models/losalamos.pt > "$ref"
exec bash campaigns/run.sh losalamos-deeper "$run" --config configs/losalamos.toml \
  --set loop.generations=0 --set selfplay.full_visits=800 --set selfplay.fast_visits=160 \
  --set "loop.anchors=[\"net:model=$ref,sims=200\", \"uci:cmd=/usr/games/fairy-stockfish,variant=losalamos,depth=1\"]" \
  --set loop.anchor_games=40
