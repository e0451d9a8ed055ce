#!/usr/bin/env bash
# vzero web's live updates (/api/events, Server-Sent Events): the token is
# required, streams beyond --max-streams get 429, a change of the run folder
# arrives on the open streams, and SIGTERM (then SIGINT, on a second server)
# ends the server promptly with streams open. Usage: web_events.sh VZERO
set -euo pipefail
vzero=$1
dir=$(mktemp -d)
pid= curls=()
trap 'for p in $pid "${curls[@]}"; do kill "$p" 2> /dev/null || true; done; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$dir/run"

# start: a server on the run folder with 2 streams at most; sets pid, base and token.
start() {
  "$vzero" web --run-dir "$dir/run" --port 0 --max-streams 2 > "$dir/out" 2>&1 &
  pid=$!
  for _ in $(seq 600); do grep -q 'http://' "$dir/out" && break; kill -0 "$pid"; sleep 0.1; done
  local url
  url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$dir/out")
  base=${url%/?t=*}
  token=${url##*t=}
}
# open_streams: two streams held open by curl, into $dir/stream-1 and -2 (sets curls).
open_streams() {
  curls=()
  for k in 1 2; do
    curl -s -N "$base/api/events?t=$token" > "$dir/stream-$k" &
    curls+=($!)
  done
  for k in 1 2; do
    for _ in $(seq 100); do grep -q '^event: run' "$dir/stream-$k" && break; sleep 0.05; done
    grep -q '^event: run' "$dir/stream-$k" || fail "stream $k sent no first event"
  done
}
# stops_promptly SIGNAL: the server ends within 3 s of SIGNAL, with status 0.
stops_promptly() {
  kill "-$1" "$pid"
  for _ in $(seq 30); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2> /dev/null && fail "vzero web still runs 3 s after SIG$1 with streams open"
  wait "$pid" || fail "vzero web ended with status $? after SIG$1"
  pid=
  for p in "${curls[@]}"; do wait "$p" || true; done  # the streams ended with it
}

start
# Without the token or with a wrong one: 403, and no stream is counted.
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/events")" = 403 ] || fail "a stream without the token"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/events?t=nope")" = 403 ] || fail "a stream with a wrong token"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Origin: http://evil.example" "$base/api/events?t=$token")" = 403 ] ||
  fail "a stream for a foreign Origin"
open_streams
# A third stream is refused while two are open.
code=$(curl -s -o "$dir/body" -w '%{http_code}' --max-time 5 "$base/api/events?t=$token")
[ "$code" = 429 ] || fail "a third stream gave $code, not 429"
curl -s -H "X-Vzero-Token: $token" "$base/api/runs" | grep -q '"streams":2' || fail "the server does not count 2 streams"
# A change of the folder (progress.txt, then ratings.csv) arrives on both streams.
echo "generation 1: self-play 10/96 games" > "$dir/run/progress.txt"
printf 'player,elo,margin,games\ngen-000,0,0,10\n' > "$dir/run/ratings.csv"
for k in 1 2; do
  for _ in $(seq 60); do grep -q 'gen-000' "$dir/stream-$k" && break; sleep 0.05; done
  grep -q 'self-play 10/96' "$dir/stream-$k" || fail "stream $k did not get progress.txt"
  grep -q 'gen-000' "$dir/stream-$k" || fail "stream $k did not get ratings.csv"
done
# A page that goes away: its stream ends at the next write (no SIGPIPE ends the server), and its
# place is free again.
kill "${curls[0]}"
for k in $(seq 40); do
  echo "generation 1: self-play $k/96 games" > "$dir/run/progress.txt"
  sleep 0.2
  curl -s -H "X-Vzero-Token: $token" "$base/api/runs" | grep -q '"streams":1' && break
done
kill -0 "$pid" || fail "vzero web died when a page went away"
curl -s -H "X-Vzero-Token: $token" "$base/api/runs" | grep -q '"streams":1' || fail "a closed stream is still counted"
curls=("${curls[1]}")
stops_promptly TERM

# Ctrl-C with streams open, on a fresh server.
start
open_streams
stops_promptly INT
echo "web events: ok"
