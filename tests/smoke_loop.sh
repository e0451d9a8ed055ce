#!/usr/bin/env bash
# The whole loop on configs/smoke.toml, then a restart that continues it, a
# different config refused in the same folder, and a snapshot of the run
# (scripts/snapshot-run.sh) that goes on in a new folder.
set -euo pipefail
vzero="$1" config="$2" digest="$3" snapshot="$4"
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
# Games played by a network are not the network-free bootstrap, even by a generation-0 model:
# their shards are labelled generation 1 (so [train] bootstrap_share does not cap them).
"$vzero" selfplay --config "$config" --model "$dir/run/models/gen-000.pt" --games 2 --out "$dir/sp" > /dev/null 2>&1
ls "$dir"/sp/selfplay-g1-*.h5 > /dev/null 2>&1 || fail "selfplay by gen-000 wrote $(ls "$dir/sp"), not selfplay-g1-*"
# A different config in the same folder is refused as bad input (exit 2, one line naming the cause).
rc=0
"$vzero" loop --config "$config" --run-dir "$dir/run" --set selfplay.games=5 > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -eq 2 || fail "another config: exit status $rc, expected 2 ($(cat "$dir/err"))"
grep -q "holds a run of another config" "$dir/err" || fail "another config: '$(cat "$dir/err")'"
test "$(wc -l < "$dir/err")" -eq 1 || fail "another config: more than one line on stderr"
# A snapshot holds the run's state, by default without its shards, and a run goes on from it in a new folder:
# the generation count, the current model and the trainer's step go on.
mkdir -p "$dir/snap" && echo "echo resume" > "$dir/snap/resume.sh"
bash "$snapshot" "$dir/run" "$dir/snap" > /dev/null
test -f "$dir/snap/resume.sh" || fail "the snapshot dropped the folder's resume.sh"
for f in config.toml metrics.csv models/gen-000.pt models/gen-003.pt models/train.pt; do
  test -f "$dir/snap/$f" || fail "the snapshot has no $f"
done
test ! -e "$dir/snap/shards" || fail "the snapshot holds the shards"
test ! -e "$dir/snap/models/gen-002.pt" || fail "the snapshot holds an old model"
cp -r "$dir/snap" "$dir/resumed"
"$vzero" loop --config "$config" --run-dir "$dir/resumed" --set loop.generations=4 > "$dir/log"
grep -q "3 generations done, current model gen-3" "$dir/log" || fail "the snapshot did not go on from generation 3"
test "$(tail -n +2 "$dir/resumed/metrics.csv" | wc -l)" -eq 4 || fail "resumed: expected 4 metrics rows"
read -r _ _ _ gen4_step _ _ < <(/usr/bin/python3 "$digest" "$dir/resumed/models/gen-004.pt")
test "$gen4_step" -eq 80 || fail "resumed: gen-004 is at step $gen4_step, not 80"
# With SHARD_GENERATIONS 1 it keeps the newest generation's shards only, and a run goes on from them.
bash "$snapshot" "$dir/run" "$dir/snap3" 1 > /dev/null
ls "$dir/snap3/shards" | grep -q '^gen3-.*\.h5$' || fail "the snapshot with shards has no shards of generation 3"
! ls "$dir/snap3/shards" | grep -v '^gen3-' || fail "the snapshot with 1 shard generation holds older shards"
# A generation in progress (a finished shard of generation 4 only) does not count as one of them.
cp -r "$dir/run" "$dir/busy" && rm -f "$dir/busy/lock"
cp "$(ls "$dir/busy/shards/"gen3-*.h5 | head -n 1)" "$dir/busy/shards/gen4-1-000099.h5"
bash "$snapshot" "$dir/busy" "$dir/snap5" 1 > /dev/null
ls "$dir/snap5/shards" | grep -q '^gen3-.*\.h5$' || fail "a generation in progress pushed out generation 3's shards"
ls "$dir/snap5/shards" | grep -q '^gen4-1-000099\.h5$' || fail "the snapshot dropped the generation in progress"
cp -r "$dir/snap3" "$dir/resumed3"
"$vzero" loop --config "$config" --run-dir "$dir/resumed3" --set loop.generations=4 > "$dir/log3"
test "$(tail -n +2 "$dir/resumed3/metrics.csv" | wc -l)" -eq 4 || fail "resumed with shards: expected 4 metrics rows"
shards_without=$(grep -o " shards [0-9]*" "$dir/log" | tail -n 1 | cut -d' ' -f3)
shards_with=$(grep -o " shards [0-9]*" "$dir/log3" | tail -n 1 | cut -d' ' -f3)
test "$shards_with" -gt "$shards_without" ||
  fail "generation 4 trained on $shards_with shards with the kept ones, $shards_without without"
rc=0
bash "$snapshot" "$dir/run" "$dir/snap4" two > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -eq 2 || fail "a snapshot with SHARD_GENERATIONS 'two': exit status $rc, expected 2"
grep -q "whole number" "$dir/err" || fail "SHARD_GENERATIONS 'two': '$(cat "$dir/err")'"
# Bad input: not a run folder.
rc=0
bash "$snapshot" "$dir/nothing" "$dir/snap2" > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -ne 0 || fail "a snapshot of no run folder succeeded"
grep -q "not found" "$dir/err" || fail "a snapshot of no run folder: '$(cat "$dir/err")'"
test ! -e "$dir/snap2" || fail "a snapshot of no run folder wrote $dir/snap2"
echo "smoke loop ok"
