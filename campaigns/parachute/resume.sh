#!/usr/bin/env bash
# Starts or resumes the Parachute run s-parachute (issue 30: configs/parachute.toml, started from
# the model shipped then, models/parachute.pt; the string stays part of the run's config) in
# RUN_DIR (default /work/runs/s-parachute), from this snapshot when there is one (campaigns/run.sh).
set -euo pipefail
run=${1:-/work/runs/s-parachute}
exec bash "$(dirname "$0")/../run.sh" parachute "$run" --config configs/parachute.toml \
  --set 'loop.init_model="models/parachute.pt"'
