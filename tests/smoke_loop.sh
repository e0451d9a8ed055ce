#!/usr/bin/env bash
# The whole loop on configs/smoke.toml, then a restart that continues it.
set -euo pipefail
vzero="$1" config="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$vzero" loop --config "$config" --run-dir "$dir/run"
test "$(tail -n +2 "$dir/run/metrics.csv" | wc -l)" -eq 2
test -s "$dir/run/curve.png"
test -f "$dir/run/models/gen-002.pt"
# Restarted with one more generation, it goes on from where it stopped.
"$vzero" loop --config "$config" --run-dir "$dir/run" --set loop.generations=3 | tee "$dir/log"
grep -q "2 generations done" "$dir/log"
test "$(tail -n +2 "$dir/run/metrics.csv" | wc -l)" -eq 3
# A different config in the same folder is refused.
if "$vzero" loop --config "$config" --run-dir "$dir/run" --set selfplay.games=5 2>/dev/null; then exit 1; fi
echo "smoke loop ok"
