#!/usr/bin/env bash
# The whole loop on configs/smoke.toml, then a restart that continues it, and
# a different config refused in the same folder.
set -euo pipefail
vzero="$1" config="$2" digest="$3"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke loop: $*"; exit 1; }
"$vzero" loop --config "$config" --run-dir "$dir/run"
test "$(tail -n +2 "$dir/run/metrics.csv" | wc -l)" -eq 2 || fail "expected 2 metrics rows"
test -s "$dir/run/curve.png" || fail "no curve.png"
# Training changed the weights: generation 2 is not generation 0, and it is 2 x 20 steps on.
read -r _ gen0_hash _ _ _ _ < <(/usr/bin/python3 "$digest" "$dir/run/models/gen-000.pt")
read -r _ gen2_hash _ gen2_step _ _ < <(/usr/bin/python3 "$digest" "$dir/run/models/gen-002.pt")
test "$gen0_hash" != "$gen2_hash" || fail "gen-002 has the weights of gen-000"
test "$gen2_step" -eq 40 || fail "gen-002 is at step $gen2_step, not 40"
# Restarted with one more generation, it goes on from where it stopped.
"$vzero" loop --config "$config" --run-dir "$dir/run" --set loop.generations=3 | tee "$dir/log"
grep -q "2 generations done" "$dir/log" || fail "the restart did not go on from generation 2"
test "$(tail -n +2 "$dir/run/metrics.csv" | wc -l)" -eq 3 || fail "expected 3 metrics rows"
# A different config in the same folder is refused as bad input (exit 2, one line naming the cause).
rc=0
"$vzero" loop --config "$config" --run-dir "$dir/run" --set selfplay.games=5 > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -eq 2 || fail "another config: exit status $rc, expected 2 ($(cat "$dir/err"))"
grep -q "holds a run of another config" "$dir/err" || fail "another config: '$(cat "$dir/err")'"
test "$(wc -l < "$dir/err")" -eq 1 || fail "another config: more than one line on stderr"
echo "smoke loop ok"
