#!/usr/bin/env bash
# Distributed training on loopback: 20 steps of configs/smoke.toml on the same
# shards by one process, by two ranks over Gloo with a TCP store (RANK,
# WORLD_SIZE, MASTER_ADDR, MASTER_PORT) and, when Open MPI is installed, by
# `mpirun -np 2` with a file store in the run folder. The ranks split each
# batch of 64 samples in two; their mean losses and the weights' checksum
# must equal the single process's within 1e-5 (relative).
# Usage: tests/distributed_train.sh VZERO CONFIG
set -euo pipefail
vzero="$1" config="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "distributed train: $*"; exit 1; }
settings=(--set train.steps=20 --set train.batch_size=64 --set train.threads=1)

"$vzero" selfplay --config "$config" --games 16 --out "$dir/shards" > /dev/null
for run in one two mpi; do
  mkdir -p "$dir/$run"
  cp -r "$dir/shards" "$dir/$run/shards"
done

"$vzero" train --config "$config" --run-dir "$dir/one" "${settings[@]}" > "$dir/one.log"

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pids=()
for rank in 0 1; do
  RANK=$rank WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port GLOO_SOCKET_IFNAME=lo \
    "$vzero" train --config "$config" --run-dir "$dir/two" "${settings[@]}" > "$dir/two.$rank.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { cat "$dir"/two.*.log; fail "a rank failed"; }; done
test ! -s "$dir/two.1.log" || fail "rank 1 printed: $(head -n 2 "$dir/two.1.log")"
grep -q "distributed training: 2 ranks (torchrun), gloo" "$dir/two.0.log" || fail "no distributed line: $(cat "$dir/two.0.log")"

logs=("$dir/one.log" "$dir/two.0.log")
if command -v mpirun > /dev/null; then
  mpirun --allow-run-as-root --oversubscribe -np 2 -x GLOO_SOCKET_IFNAME=lo \
    "$vzero" train --config "$config" --run-dir "$dir/mpi" "${settings[@]}" > "$dir/mpi.log" 2>&1 ||
    { cat "$dir/mpi.log"; fail "mpirun -np 2 failed"; }
  grep -q "distributed training: 2 ranks (openmpi), gloo, file store" "$dir/mpi.log" || fail "mpirun: $(cat "$dir/mpi.log")"
  test -z "$(ls -A "$dir/mpi/rendezvous")" || fail "the file store was left behind: $(ls "$dir/mpi/rendezvous")"
  logs+=("$dir/mpi.log")
else
  echo "distributed train: mpirun not found, the Open MPI case is skipped"
fi

/usr/bin/python3 - "${logs[@]}" <<'EOF'
import sys

def fields(path):
    line = next(l for l in open(path) if l.startswith("train step "))
    words = line.split()[1:]  # "step S steps N ...": names and values
    found = {k: float(v) for k, v in zip(words[::2], words[1::2])}
    keys = ("step", "policy_loss", "value_loss", "checksum")
    if not all(k in found for k in keys):
        sys.exit("distributed train: %s: no %s in '%s'" % (path, "/".join(keys), line.strip()))
    return {k: found[k] for k in keys}

ref = fields(sys.argv[1])
for path in sys.argv[2:]:
    got = fields(path)
    for key, want in ref.items():
        error = abs(got[key] - want) / max(abs(want), 1e-12)
        print("%s %s: %.9g vs one process %.9g (relative %.1e)" % (path.split("/")[-1], key, got[key], want, error))
        if error > 1e-5:
            sys.exit("distributed train: %s differs from one process's beyond 1e-5" % key)
print("distributed train ok")
EOF
