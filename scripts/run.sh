#!/usr/bin/env bash
# Installs the dependencies, builds and runs the main job: a short real
# training loop on Los Alamos chess (configs/first-hour.toml: a small network,
# six generations; the first learns from heuristic-search games, the rest
# from their own), printing its progress and how to watch it in the browser
# (vzero web). Every generation plays generation 0 and a fixed heuristic-search
# anchor, so the ladder in ratings.csv, curve.png and the dashboard shows the
# network getting stronger. Run again, it resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
run=runs/first-hour
start=$(date +%s)
echo "main job: watch it live in the browser, from another terminal: ./build/cli/vzero web --run-dir $run (then open the address it prints; --open opens it)"
./build/cli/vzero loop --config configs/first-hour.toml --run-dir "$run"
echo "main job: $(( ($(date +%s) - start) / 60 )) min; the ladder (Elo, gen-000 = 0, ± the 95% interval):"
column -s, -t < "$run/ratings.csv" 2>/dev/null || cat "$run/ratings.csv"
echo "ratings: $run/ratings.csv, per generation: $run/metrics.csv, ladder and learning curves: $run/curve.png"
echo "dashboard in the browser: ./build/cli/vzero web --run-dir $run --open (or open the http://127.0.0.1:…/?t=… address it prints)"
