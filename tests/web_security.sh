#!/usr/bin/env bash
# vzero web refuses what it must and changes nothing then: a request without
# the token or with a wrong one (403), a foreign Origin or Host (403), a uci:
# player or a model outside the run and model folders (400), a body over the
# limit (413). Usage: web_security.sh VZERO
set -euo pipefail
vzero=$1
dir=$(mktemp -d)
trap 'kill "$pid" 2> /dev/null || true; rm -rf "$dir"' EXIT
mkdir "$dir/run"
"$vzero" web --run-dir "$dir/run" --port 0 > "$dir/out" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q 'http://' "$dir/out" && break; kill -0 "$pid"; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/?t=[0-9a-f]*' "$dir/out")
base=${url%/?t=*}
port=${base##*:}
token=${url##*t=}
fail() { echo "FAIL: $*"; exit 1; }
# status CODE CURL-ARGS...: the request's status must be CODE.
status() {
  local want=$1; shift
  local got
  got=$(curl -s -o "$dir/body" -w '%{http_code}' "$@")
  [ "$got" = "$want" ] || fail "$* gave $got, not $want: $(cat "$dir/body")"
}
sessions() { curl -s -H "X-Vzero-Token: $token" "$base/api/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sessions"])'; }

status 200 "$url"
status 200 -H "X-Vzero-Token: $token" "$base/api/runs"
# No token, a wrong one, on the page, an asset, the API and a session: 403, no session made.
status 403 "$base/"
status 403 "$base/app.js"
status 403 "$base/api/runs"
# The token with its last character changed (to another one whatever it was).
last=${token: -1}
[ "$last" = 0 ] && other=1 || other=0
status 403 "$base/?t=${token%?}$other"
status 403 -H "X-Vzero-Token: nope" "$base/api/runs"
status 403 -X POST -d '{}' "$base/api/session/new"
[ "$(sessions)" = 0 ] || fail "a refused request made a session"
# DNS rebinding: a foreign Host or Origin, even with the token.
status 403 -H "Host: evil.example:$port" "$url"
status 403 -H "Host: 127.0.0.1:1" "$url"
status 403 -H "Origin: http://evil.example" -X POST -d '{}' "$base/api/session/new?t=$token"
status 403 -H "Origin: http://127.0.0.1:1" "$url"
[ "$(sessions)" = 0 ] || fail "a refused request made a session"
status 200 -H "Origin: http://localhost:$port" -H "Host: localhost:$port" "$url"
# A session refuses uci: players and foreign models; its game stays unstarted.
status 200 -H "X-Vzero-Token: $token" -X POST -d '{}' "$base/api/session/new"
sid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["session"])' "$dir/body")
session="$base/api/session?s=$sid"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"start","variant":"chess","player":"uci:cmd=/bin/sh,depth=1"}' "$session"
grep -q 'allow-engines' "$dir/body" || fail "no reason given: $(cat "$dir/body")"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"start","model":"/etc/passwd"}' "$session"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"start","player":"net:model=../../etc/passwd"}' "$session"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"start","player":"exec:rm"}' "$session"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"state"}' "$session"
grep -q 'error' "$dir/body" || fail "a refused start started a game"
# Without the token the session is not touched; with it a game starts, then a move.
status 403 -X POST -d '{"cmd":"start","variant":"losalamos","player":"random"}' "$session"
status 400 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"state"}' "$session"
status 200 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"start","variant":"losalamos","player":"random"}' "$session"
status 403 -X POST -d '{"cmd":"apply","action":"a2a3"}' "$session"
status 200 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"state"}' "$session"
grep -q '"ply":0' "$dir/body" || fail "a refused apply moved: $(cat "$dir/body")"
# Two request lines in one call, a body over the limit, bad parameters: 4xx.
status 400 -H "X-Vzero-Token: $token" -X POST --data-binary $'{"cmd":"state"}\n{"cmd":"state"}' "$session"
head -c 70000 /dev/zero | tr '\0' ' ' > "$dir/big"
status 413 -H "X-Vzero-Token: $token" -X POST --data-binary "@$dir/big" "$session"
status 400 -H "X-Vzero-Token: $token" "$base/api/run?run=7"
status 400 -H "X-Vzero-Token: $token" "$base/api/games?run=0&gen=-1"
status 404 -H "X-Vzero-Token: $token" -X POST -d '{"cmd":"state"}' "$base/api/session?s=nosuch"
kill -0 "$pid" || fail "the server died"
echo "web security: ok"
