#!/usr/bin/env bash
# Side-by-side perft speed: Debian's fairy-stockfish `go perft` against
# `vzero perft`, single thread, same positions. Fairy-Stockfish's time is its
# wall time less its start-up (a run with no perft); vzero's is its own time_ms.
set -euo pipefail
cd "$(dirname "$0")/.."
fs=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
vz=./build/cli/vzero
[ -x "$fs" ] || { echo "fairy-stockfish not installed (scripts/install-deps.sh)"; exit 2; }
[ -x "$vz" ] || { echo "build vzero first (scripts/build.sh)"; exit 2; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
fs_run() {  # variant depth -> wall ms
  local t0 t1
  t0=$(ms)
  printf 'setoption name Threads value 1\nsetoption name UCI_Variant value %s\nposition startpos\n%s\nquit\n' \
    "$1" "${2:+go perft $2}" | "$fs" >/tmp/vzero-fs.out
  t1=$(ms)
  echo $((t1 - t0))
}
for row in "chess 6" "grand 4" "losalamos 7" "shogi 5" "minishogi 6"; do
  set -- $row
  startup=$(fs_run "$1" "")
  wall=$(fs_run "$1" "$2")
  fs_nodes=$(grep -o 'Nodes searched: [0-9]*' /tmp/vzero-fs.out | awk '{print $3}')
  fs_ms=$((wall - startup))
  line=$("$vz" perft --variant "$1" --depth "$2" | tail -n1)
  vz_nodes=$(echo "$line" | awk '{print $2}')
  vz_ms=$(echo "$line" | awk '{print $4}')
  ratio=$(awk -v a="$fs_ms" -v b="$vz_ms" 'BEGIN{printf "%.2f", a / (b > 0 ? b : 1)}')
  echo "$1 depth $2: fairy-stockfish ${fs_ms} ms (${fs_nodes} nodes), vzero ${vz_ms} ms (${vz_nodes} nodes), vzero ${ratio}x as fast"
done
