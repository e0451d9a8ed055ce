#!/usr/bin/env bash
# Throughput of the roles on this machine (loopback): self-play positions/s
# of 1 and of 2 workers playing with a network (a fresh model promoted as
# generation 1), each for SECONDS, then training samples/s of 1 process and
# of 2 ranks over Gloo on the shards they wrote. Each worker runs its
# network on one thread (inference.threads_per_worker=1): on a 2-core
# machine, 2 workers with 2 OpenMP threads each spin against each other
# (LibTorch's threads busy-wait) and fall to a few percent of one worker.
# Usage: scripts/cluster/loopback-bench.sh [VZERO] [CONFIG] [SECONDS] [STEPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
VZERO=$(realpath "${1:-build/cli/vzero}")
CONFIG=${2:-configs/attrition.toml}
SECONDS_EACH=${3:-60}
STEPS=${4:-50}
dir=$(mktemp -d /tmp/vzero-loopback-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
run="$dir/run"

# A promoted network: trained briefly on a few bootstrap games, kept as gen-001.
"$VZERO" selfplay --config "$CONFIG" --games 8 --set selfplay.full_visits=16 --set selfplay.fast_visits=4 \
  --out "$run/shards" > /dev/null
"$VZERO" train --config "$CONFIG" --run-dir "$run" > /dev/null
cp "$run/models/train.pt" "$run/models/gen-001.pt"
echo "generation 1" > "$run/models/current.txt"

# workers N: N workers for SECONDS_EACH seconds; prints the positions/s of all of them together.
workers() {
  local n=$1 pids=() start end
  start=$(date +%s.%N)
  for i in $(seq 1 "$n"); do
    "$VZERO" selfplay --follow --config "$CONFIG" --run-dir "$run" --set inference.threads_per_worker=1 \
      > "$dir/w$n.$i.log" 2>&1 &
    pids+=($!)
  done
  sleep "$SECONDS_EACH"
  kill -TERM "${pids[@]}"
  wait "${pids[@]}"
  end=$(date +%s.%N)
  cat "$dir"/w"$n".*.log | awk -v s="$start" -v e="$end" -v n="$n" '
    / block .* positions / { for (i = 1; i < NF; ++i) if ($i == "positions") p += $(i + 1) }
    END { printf "selfplay workers %d positions %d seconds %.1f positions_per_s %.1f\n", n, p, e - s, p / (e - s) }'
}
workers 1
workers 2

# Training: one process, then two ranks on loopback (each half of every batch).
settings=(--set train.steps="$STEPS" --set train.threads=1)
for copy in one two; do
  cp -r "$run" "$dir/$copy"
  rm "$dir/$copy/config.toml" "$dir/$copy/models/train.pt" "$dir/$copy/models/train-target.txt"  # a fresh training
done
"$VZERO" train --config "$CONFIG" --run-dir "$dir/one" "${settings[@]}" | sed -n 's/.*\(samples_per_s [0-9.]*\).*/train ranks 1 \1/p'
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port GLOO_SOCKET_IFNAME=lo \
  "$VZERO" train --config "$CONFIG" --run-dir "$dir/two" "${settings[@]}" > /dev/null &
RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port GLOO_SOCKET_IFNAME=lo \
  "$VZERO" train --config "$CONFIG" --run-dir "$dir/two" "${settings[@]}" | sed -n 's/.*\(samples_per_s [0-9.]*\).*/train ranks 2 \1/p'
wait
