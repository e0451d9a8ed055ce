#!/usr/bin/env bash
# The browser test of vzero web: serves an empty run folder, trains the smoke
# run (configs/smoke.toml) into it while the page watches, and drives the page in Debian's chromium with playwright-core
# (browser.mjs). Screenshots land in SHOTS. Exit 77 (skipped) when chromium,
# node or tests/web's npm packages (scripts/test.sh installs them) are absent.
# Usage: browser_test.sh VZERO SMOKE_CONFIG SHOTS
set -euo pipefail
vzero=$1 config=$2 shots=$3
here=$(cd "$(dirname "$0")" && pwd)
for need in /usr/bin/chromium "$here/node_modules/playwright-core/package.json"; do
  [ -e "$need" ] || { echo "skipped: $need is missing (bash scripts/install-deps.sh; cd tests/web && npm ci)"; exit 77; }
done
command -v node > /dev/null || { echo "skipped: no node"; exit 77; }
dir=$(mktemp -d)
pid= node_pid=
trap 'for p in $pid $node_pid; do kill "$p" 2> /dev/null || true; done; rm -rf "$dir"' EXIT
# The page is opened on the empty run folder first and the loop starts only once it shows it
# (browser.mjs then creates READY), so the dashboard must follow the folder live.
mkdir "$dir/run"
generations=$(sed -n 's/^generations *= *\([0-9]*\).*/\1/p' "$config")
gens=$(seq -s, 0 "$generations")
"$vzero" web --run-dir "$dir/run" --port 0 > "$dir/web.log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q 'http://' "$dir/web.log" && break; kill -0 "$pid"; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$dir/web.log")
mkdir -p "$shots"
rm -f "$shots/failure.png"
node "$here/browser.mjs" "$url" "$shots" "$gens" "$dir/ready" &
node_pid=$!
while [ ! -e "$dir/ready" ]; do kill -0 "$node_pid" || { wait "$node_pid"; exit 1; }; sleep 0.1; done
"$vzero" loop --config "$config" --run-dir "$dir/run" > "$dir/loop.log" 2>&1 || { cat "$dir/loop.log"; exit 1; }
wait "$node_pid"
kill -0 "$pid" || { echo "vzero web died:"; cat "$dir/web.log"; exit 1; }
