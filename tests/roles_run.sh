#!/usr/bin/env bash
# The roles of a shared run folder on loopback: a trainer (`train --follow`),
# a gate (`gate --follow`) and two self-play workers (`selfplay --follow`)
# run the smoke config to its 2 generations. With KILLS > 0, a third worker
# is first started and SIGKILLed KILLS times at random moments while the
# trainer runs, then the gate and the two workers go on with the run. Passes when
#   - every role exits 0 and the gate gated generations 1 and 2,
#   - every shard is complete (the C++ reader accepts it: `vzero train` on a
#     copy of the folder reads them all) and no game id appears twice,
#   - every shard a worker reported is there, and the shards of the workers
#     that were not killed hold exactly the games they reported (nothing lost,
#     nothing extra; a killed worker may have finished a shard it did not report),
#   - (without kills, with Open MPI) the gate under `mpirun -np 2` gates gen-1 as one process does.
# Usage: tests/roles_run.sh VZERO CONFIG [KILLS]   (KILL_SEED=S repeats the kill times; KEEP=1 keeps the folder)
set -euo pipefail
vzero="$1" config="$2" kills="${3:-0}"
seed=${KILL_SEED:-$RANDOM}
dir="$(mktemp -d /tmp/vzero-roles.XXXXXX)"
run="$dir/run"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done  # timeout passes it on
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
fail() {
  echo "roles run: $*"
  tail -n 5 "$dir"/*.log
  exit 1
}
role() {  # role NAME ARGS...: starts vzero ARGS in the background, its output in NAME.log
  local name="$1"
  shift
  timeout 300 "$vzero" "$@" --config "$config" --run-dir "$run" > "$dir/$name.log" 2>&1 &
  pids+=($!)
  eval "pid_$name=$!"
}

role trainer train --follow

if [ "$kills" -gt 0 ]; then
  mapfile -t delays < <(/usr/bin/python3 -c "
import random
rng = random.Random($seed)
for _ in range($kills): print('%.2f' % rng.uniform(0.1, 2.0))")
  for i in $(seq 1 "$kills"); do
    "$vzero" selfplay --follow --config "$config" --run-dir "$run" >> "$dir/killed.log" 2>&1 &
    pid=$!
    sleep "${delays[$((i - 1))]}"
    kill -KILL "$pid" 2> /dev/null || fail "the killed worker had already stopped"
    wait "$pid" 2> /dev/null || true
  done
  echo "roles run: $kills workers killed (seed $seed); $(ls "$run/shards" | grep -c '\.h5$') shards so far"
fi

# The gate comes after the kills: it ends the run once generation 2 is gated.
role gate gate --follow
role worker1 selfplay --follow
role worker2 selfplay --follow
for name in gate trainer worker1 worker2; do
  eval "pid=\$pid_$name"
  wait "$pid" || fail "$name exited with status $?"
done

grep -q "^gate gen-1 " "$dir/gate.log" || fail "generation 1 was not gated"
grep -q "^gate gen-2 " "$dir/gate.log" || fail "generation 2 was not gated"
grep -q "trainer candidate gen-2" "$dir/trainer.log" || fail "the trainer did not write gen-2"
test "$(tail -n +2 "$run/gating.csv" | wc -l)" -eq 2 || fail "gating.csv: $(cat "$run/gating.csv")"
# The gate judges through training/gate.h: its games are recorded, and ratings.csv rates the candidates.
# Each candidate then plays the loop's measuring matches (generation 0, the baseline, the anchor), and
# curve.png draws the ladder.
for g in 001 002; do
  grep -q "\"arena_prev: gen-$g vs gen-" "$run/records/gen-$g.jsonl" || fail "no recorded gate games of gen-$g"
  grep -q ",gen-$g," "$run/ratings.csv" || fail "ratings.csv lacks gen-$g: $(cat "$run/ratings.csv")"
  for key in arena_gen0 arena_base anchor_1; do
    test "$(grep -c "\"$key: gen-$g vs " "$run/records/gen-$g.jsonl")" -eq 4 || fail "gen-$g lacks the 4 games of $key"
  done
done
grep -q "^gate gen-2 vs gen-000 .* | vs random " "$dir/gate.log" || fail "the gate did not report gen-2's measuring matches"
grep -q ",random," "$run/ratings.csv" || fail "ratings.csv lacks the anchor: $(cat "$run/ratings.csv")"
if command -v gnuplot > /dev/null; then test -s "$run/curve.png" || fail "no curve.png"; fi

/usr/bin/python3 - "$run" "$dir" <<'EOF'
import collections, glob, os, re, sys
import h5py
run, logs = sys.argv[1], sys.argv[2]
counts = collections.Counter()
games = {}
for p in glob.glob(run + "/shards/*.h5"):
    with h5py.File(p, "r") as f:
        ids = [int(i) for i in f["games/game_id"][:]]
    games[os.path.basename(p)] = len(ids)
    counts.update(ids)
twice = [i for i, c in counts.items() if c > 1]
if twice:
    sys.exit("roles run: game ids written twice: %s" % twice[:10])
reported, reported_games = set(), 0
for log in glob.glob(logs + "/worker*.log"):
    for line in open(log):
        m = re.match(r"worker \S+ block \d+ model gen-\d+ games (\d+) .* shards(.*)$", line)
        if m:
            reported_games += int(m.group(1))
            reported.update(m.group(2).split())
killed, killed_reported = set(), set()
if os.path.exists(logs + "/killed.log"):
    for line in open(logs + "/killed.log"):
        m = re.match(r"worker (\S+) pid \d+ in ", line)
        if m:
            killed.add("w-" + m.group(1) + "-")
        m = re.match(r"worker \S+ block .* shards(.*)$", line)
        if m:
            killed_reported.update(m.group(1).split())
lost = (reported | killed_reported) - set(games)
if lost:
    sys.exit("roles run: shards reported but missing: %s" % sorted(lost)[:5])
survivors = {n: g for n, g in games.items() if not any(n.startswith(k) for k in killed)}
if set(survivors) - reported:
    sys.exit("roles run: shards nobody reported: %s" % sorted(set(survivors) - reported)[:5])
if sum(survivors.values()) != reported_games:
    sys.exit("roles run: the shards hold %d games, the workers reported %d" % (sum(survivors.values()), reported_games))
print("roles run: %d shards (%d by killed workers), %d games, ids unique, none lost" %
      (len(games), len(games) - len(survivors), sum(games.values())))
EOF
# A worker may run with other placement settings (games in flight, threads); another run's config is refused.
"$vzero" selfplay --follow --config "$config" --run-dir "$run" --set selfplay.parallel_games=3 --set train.threads=1 \
  > "$dir/placement.log" 2>&1 || fail "a worker with other placement settings was refused: $(cat "$dir/placement.log")"
rc=0
"$vzero" selfplay --follow --config "$config" --run-dir "$run" --set selfplay.full_visits=33 > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -eq 2 && grep -q "holds a run of another config" "$dir/err" || fail "another config: status $rc, $(cat "$dir/err")"
# The gate's match split across 2 MPI ranks gives the row of a gate in one process (one game at a
# time and no cache across games: deterministic players), on copies of the models.
if [ "$kills" -eq 0 ] && command -v mpirun > /dev/null; then
  deterministic=(--set selfplay.parallel_games=1 --set inference.cache_entries=0)
  for copy in gate1 gate2; do
    mkdir -p "$dir/$copy/models"
    cp "$run/config.toml" "$dir/$copy/"
    cp "$run"/models/gen-*.pt "$dir/$copy/models/"
  done
  "$vzero" gate --run-dir "$dir/gate1" "${deterministic[@]}" > "$dir/gate1.log" 2>&1 || fail "gate: $(cat "$dir/gate1.log")"
  mpirun --allow-run-as-root --oversubscribe -np 2 "$vzero" gate --run-dir "$dir/gate2" "${deterministic[@]}" \
    > "$dir/gate2.log" 2>&1 || fail "gate under mpirun: $(cat "$dir/gate2.log")"
  grep -q ", 2 ranks" "$dir/gate2.log" || fail "gate under mpirun: $(cat "$dir/gate2.log")"
  test "$(cut -d, -f1-10 "$dir/gate1/gating.csv")" = "$(cut -d, -f1-10 "$dir/gate2/gating.csv")" ||
    fail "the gate's rows differ: $(tail -n 1 "$dir"/gate?/gating.csv)"
  echo "roles run: gate on 2 MPI ranks = gate in one process ($(tail -n 1 "$dir/gate2/gating.csv" | cut -d, -f1-6))"
fi
# The C++ reader accepts every shard (checksums, sizes): train on a copy of the whole folder.
mkdir "$dir/copy"
cp -r "$run/shards" "$dir/copy/shards"
"$vzero" train --config "$config" --run-dir "$dir/copy" --set train.steps=1 --set train.window_positions=100000000 \
  > "$dir/copy.log" 2>&1 || fail "the shards do not all read back: $(tail -n 1 "$dir/copy.log")"
echo "roles run ok"
