#!/usr/bin/env bash
# The kill test of the loop (issue 17): runs the smoke loop once without
# interruption, then again in a second folder, killed with SIGKILL at random
# moments N times and restarted each time, then run to its end. Passes when
#   - every generation appears once in metrics.csv,
#   - no game id appears twice in the shards, and no game is missing (the
#     killed run holds exactly the games of the uninterrupted one, move for move),
#   - every match game is recorded once in records/ (a killed match resumes
#     from its records), move for move as in the uninterrupted run, and the
#     ratings fitted from them (ratings.csv) are the same,
#   - the final model (gen-G.pt and train.pt: weights, optimizer state, step)
#     equals the uninterrupted run's, and so do the metrics that do not
#     measure time.
# Both runs are single-threaded and seeded, with the inference cache off, so
# that they repeat exactly.
# Usage: scripts/kill-test.sh N [VZERO] [CONFIG]   (KILL_SEED=S repeats the kill times;
#        KEEP=1 keeps the work folder; EXTRA="--set k=v ..." adds config overrides)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:?usage: scripts/kill-test.sh N [VZERO] [CONFIG]}
VZERO=${2:-build/cli/vzero}
CONFIG=${3:-configs/smoke.toml}
SEED=${KILL_SEED:-$RANDOM}
# The run grows with N (a generation per 3 kills, at least 2) so that the kills land inside it.
GENERATIONS=$(( N / 3 > 2 ? N / 3 : 2 ))
SETTINGS=(--set selfplay.parallel_games=1 --set inference.cache_entries=0 --set inference.max_wait_us=0
          --set loop.generations="$GENERATIONS")
read -r -a EXTRA_ARGS <<< "${EXTRA:-}"
WORK=$(mktemp -d /tmp/vzero-kill-test.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then echo "work folder $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
loop() { "$VZERO" loop --config "$CONFIG" --run-dir "$1" "${SETTINGS[@]}" "${EXTRA_ARGS[@]}"; }
now() { date +%s.%N; }

# The uninterrupted run, and how long it takes; then how long a start takes
# (a restart of the finished run: it reads the folder, draws the curve, stops).
t0=$(now)
loop "$WORK/ref" > "$WORK/ref.log"
t1=$(now)
loop "$WORK/ref" > /dev/null
t2=$(now)
read -r TOTAL START < <(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { print b - a, c - b }')
echo "kill-test: N=$N seed=$SEED generations=$GENERATIONS; a start takes ${START}s, the uninterrupted run ${TOTAL}s"

# N kill times: a start plus the gaps between N sorted random points over the
# run's working time (so the kills spread over the whole run), a fifth of them
# during the start instead.
mapfile -t DELAYS < <(/usr/bin/python3 - "$N" "$START" "$TOTAL" "$SEED" <<'EOF'
import random, sys
n, start, total, seed = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
points = sorted(rng.uniform(0, max(0.1, 0.7 * (total - start))) for _ in range(n))  # 0.7: restarts redo some work
prev = 0.0
for p in points:
    if rng.random() < 0.2:
        print("%.3f" % rng.uniform(0, start))
    else:
        print("%.3f" % (start + p - prev))
        prev = p
EOF
)
# Where a killed run stood: generations done, the steps of the next one done, shards written.
where() {
  local done=0 steps="-" shards
  [ -f "$1/metrics.csv" ] && done=$(($(wc -l < "$1/metrics.csv") - 1))
  if [ -f "$1/progress.txt" ] && [ "$(head -n 1 "$1/progress.txt")" = "generation $((done + 1))" ]; then
    steps=$(tail -n +2 "$1/progress.txt" | cut -d' ' -f1 | paste -sd, -)
  fi
  shards=$(find "$1/shards" -name '*.h5' 2> /dev/null | wc -l)
  records=$(cat "$1"/records/*.jsonl 2> /dev/null | wc -l)
  echo "$done generations done; generation $((done + 1)) steps done: ${steps:--}; $shards shards; $records match games"
}
finished_early=0
for i in $(seq 1 "$N"); do
  "$VZERO" loop --config "$CONFIG" --run-dir "$WORK/run" "${SETTINGS[@]}" "${EXTRA_ARGS[@]}" >> "$WORK/run.log" 2>&1 &
  pid=$!  # vzero itself, not a subshell
  sleep "${DELAYS[$((i - 1))]}"
  if kill -KILL "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null || true
    echo "kill $i after ${DELAYS[$((i - 1))]}s: $(where "$WORK/run")"
  else
    wait "$pid" || { echo "kill-test: the loop failed"; tail -n 5 "$WORK/run.log"; exit 1; }
    finished_early=$((finished_early + 1))
    echo "kill $i: the run had already finished"
  fi
done
loop "$WORK/run" >> "$WORK/run.log" 2>&1 || { echo "kill-test: the final restart failed"; tail -n 5 "$WORK/run.log"; exit 1; }
echo "kill-test: $((N - finished_early)) kills landed; the final restart finished the run"

/usr/bin/python3 - "$WORK/ref" "$WORK/run" "$PWD/scripts" <<'EOF'
import collections, glob, json, os, sys
import h5py

sys.path.insert(0, sys.argv[3])
checkpoint_digest = __import__("checkpoint-digest")

ref, run = sys.argv[1], sys.argv[2]
failures = []

def metrics(d):
    lines = open(d + "/metrics.csv").read().splitlines()
    return lines[0].split(","), [l.split(",") for l in lines[1:]]

def games(d):
    count, moves = collections.Counter(), {}
    for p in sorted(glob.glob(d + "/shards/*.h5")):
        with h5py.File(p, "r") as f:
            g = f["games"]
            ids, off, acts = g["game_id"][:], g["action_offset"][:], g["actions"][:]
            for k, i in enumerate(ids):
                count[int(i)] += 1
                moves[int(i)] = acts[off[k]:off[k + 1]].tobytes()
    return count, moves

header, ref_rows = metrics(ref)
_, run_rows = metrics(run)
gens = len(ref_rows)
if [r[0] for r in run_rows] != [str(g) for g in range(1, gens + 1)]:
    failures.append("generations in metrics.csv: %s (expected 1..%d, each once)" % ([r[0] for r in run_rows], gens))
timed = {"selfplay_pos_per_s", "selfplay_evals_per_s", "mean_batch", "cache_hit_rate", "train_samples_per_s",
         "policy_loss", "value_loss", "seconds", "selfplay_time_share", "cpu_seconds"}  # speeds, and losses averaged over the last attempt only
for a, b in zip(ref_rows, run_rows):
    for name, x, y in zip(header, a, b):
        if name not in timed and x != y:
            failures.append("generation %s: %s %s, uninterrupted %s" % (a[0], name, y, x))

ref_count, ref_moves = games(ref)
run_count, run_moves = games(run)
expected = set()
for row in ref_rows:
    g, n = int(row[0]), int(row[header.index("games")])
    expected |= {g * 100000000 + i for i in range(n)}
for name, count in (("uninterrupted", ref_count), ("killed", run_count)):
    twice = sorted(i for i, c in count.items() if c > 1)
    if twice: failures.append("%s run: game ids written twice: %s" % (name, twice[:10]))
    if set(count) != expected:
        failures.append("%s run: %d games missing, %d unexpected" %
                        (name, len(expected - set(count)), len(set(count) - expected)))
changed = [i for i in expected if ref_moves.get(i) != run_moves.get(i)]
if changed: failures.append("%d games differ from the uninterrupted run's (e.g. %d)" % (len(changed), changed[0]))

def records(d):
    games, twice = {}, []
    for p in sorted(glob.glob(d + "/records/*.jsonl")):
        for line in open(p):
            if not line.endswith("\n"):
                continue  # a line cut short by a kill: not a recorded game
            r = json.loads(line)
            key = (os.path.basename(p), r["match"], r["index"])
            if key in games: twice.append(key)
            games[key] = (r["players"], r["opening"], r["moves"], r["result"])
    return games, twice

ref_records, _ = records(ref)
run_records, twice = records(run)
if twice: failures.append("match games recorded twice: %s" % twice[:5])
if not ref_records: failures.append("the uninterrupted run recorded no match games")
if set(run_records) != set(ref_records):
    failures.append("recorded match games: %d missing, %d unexpected" %
                    (len(set(ref_records) - set(run_records)), len(set(run_records) - set(ref_records))))
differ = [k for k in ref_records if k in run_records and ref_records[k] != run_records[k]]
if differ: failures.append("%d match games differ from the uninterrupted run's (e.g. %s)" % (len(differ), differ[0]))
if open(ref + "/ratings.csv").read() != open(run + "/ratings.csv").read():
    failures.append("ratings.csv differs from the uninterrupted run's")

for name in ("gen-%03d.pt" % gens, "train.pt"):
    a, b = (checkpoint_digest.digest(d + "/models/" + name) for d in (ref, run))
    if a != b: failures.append("%s: %s, uninterrupted %s" % (name, b, a))

print("kill-test: %d generations, %d games, %d match games, final model %s" %
      (gens, len(expected), len(ref_records), checkpoint_digest.digest(ref + "/models/gen-%03d.pt" % gens)))
if failures:
    print("kill-test: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("kill-test: passed")
EOF
