#!/usr/bin/env bash
# The soak test of the loop (issue 17): runs the smoke loop without end (a
# replay window small enough to fill within minutes, so that a growing window
# is not mistaken for a leak) for HOURS, samples the resident memory of the
# vzero process (all of it, and its anonymous part: heap and stacks, without
# the mapped libraries) every INTERVAL seconds into rss.csv, then stops it
# and prints the memory slopes: a least-squares line through the samples after the first
# WARMUP share of the run, in MB per hour. Memory is flat when the slope is
# near zero.
# Usage: scripts/soak.sh HOURS [VZERO] [CONFIG]   (INTERVAL=10 WARMUP=0.2 OUT=dir keep the
#        samples and the run in dir; EXTRA="--set k=v ..." adds config overrides)
# Run it at low priority on a shared machine: nice -n 19 scripts/soak.sh 1
set -euo pipefail
cd "$(dirname "$0")/.."
HOURS=${1:?usage: scripts/soak.sh HOURS [VZERO] [CONFIG]}
VZERO=${2:-build/cli/vzero}
CONFIG=${3:-configs/smoke.toml}
INTERVAL=${INTERVAL:-10}
WARMUP=${WARMUP:-0.2}
OUT=${OUT:-$(mktemp -d /tmp/vzero-soak.XXXXXX)}
read -r -a EXTRA_ARGS <<< "${EXTRA:-}"
mkdir -p "$OUT"
SECONDS_TOTAL=$(awk -v h="$HOURS" 'BEGIN { printf "%d", h * 3600 }')

"$VZERO" loop --config "$CONFIG" --run-dir "$OUT/run" --set loop.generations=0 \
  --set train.window_positions=3000 --set selfplay.parallel_games=2 "${EXTRA_ARGS[@]}" > "$OUT/loop.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
echo "seconds,rss_kb,anon_kb,generations" > "$OUT/rss.csv"
start=$(date +%s)
while :; do
  now=$(date +%s)
  elapsed=$((now - start))
  [ "$elapsed" -ge "$SECONDS_TOTAL" ] && break
  rss=$(awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } END { print r "," a }' "/proc/$pid/status" 2>/dev/null) ||
    { echo "soak: the loop stopped after ${elapsed}s"; tail -n 5 "$OUT/loop.log"; exit 1; }
  generations=0
  [ -f "$OUT/run/metrics.csv" ] && generations=$(($(wc -l < "$OUT/run/metrics.csv") - 1))
  echo "$elapsed,$rss,$generations" >> "$OUT/rss.csv"
  sleep "$INTERVAL"
done
kill "$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT

python3 - "$OUT/rss.csv" "$WARMUP" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
warmup = float(sys.argv[2])
if len(rows) < 4:
    sys.exit("soak: too few samples")
t = [float(r["seconds"]) for r in rows]
end = t[-1]

def slope(column):
    """MB/hour of a least-squares line through the samples after the warm-up, and their mean in MB."""
    pts = [(x, float(r[column]) / 1024) for x, r in zip(t, rows) if x >= warmup * end]
    n = len(pts)
    mx, my = sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    var = sum((p[0] - mx) ** 2 for p in pts)
    return (sum((p[0] - mx) * (p[1] - my) for p in pts) / var * 3600 if var > 0 else 0.0), my, n

mb = lambda r, c: float(r[c]) / 1024
print("soak: %.2f h, %s generations, %d samples; RSS first %.1f MB, last %.1f MB, max %.1f MB" %
      (end / 3600, rows[-1]["generations"], len(rows), mb(rows[0], "rss_kb"), mb(rows[-1], "rss_kb"),
       max(mb(r, "rss_kb") for r in rows)))
for column, name in (("rss_kb", "RSS"), ("anon_kb", "anonymous RSS (heap, stacks)")):
    s, mean, n = slope(column)
    print("soak: %s slope after the first %d%% of the run: %+.2f MB/hour (mean %.1f MB over %d samples)" %
          (name, warmup * 100, s, mean, n))
# The anonymous part in ten slices of the run: a leak lifts the minimum (the
# memory held between generations), not only the mean and the peaks.
print("soak: anonymous RSS by tenth of the run (MB): minutes, generations, min, mean, max")
for k in range(10):
    part = [r for x, r in zip(t, rows) if k * end / 10 <= x < (k + 1) * end / 10 or (k == 9 and x == end)]
    if part:
        a = [mb(r, "anon_kb") for r in part]
        print("soak:   %5.1f-%5.1f  %6s  %6.1f  %6.1f  %6.1f" % (k * end / 600, (k + 1) * end / 600,
              part[-1]["generations"], min(a), sum(a) / len(a), max(a)))
EOF
echo "soak: samples in $OUT/rss.csv"
