#!/usr/bin/env bash
# Bad input to the vzero binary: one line on stderr and exit status 2.
set -u
vz=$1
fails=0
expect_error() {
  local err
  err=$("$vz" "$@" 2>&1 >/dev/null)
  local rc=$?
  local lines
  lines=$(printf '%s' "$err" | grep -c '')
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ]; then
    echo "FAIL (rc=$rc, $lines stderr lines): vzero $*"; echo "$err"; fails=$((fails + 1))
  fi
}
expect_ok() {
  if ! "$vz" "$@" >/dev/null 2>&1; then echo "FAIL (expected success): vzero $*"; fails=$((fails + 1)); fi
}
expect_error perft --variant nonesuch --depth 1
expect_error perft --variant chess --depth -1
expect_error perft --variant chess --depth abc
expect_error perft --variant chess --depth 99
expect_error perft --variant chess --fen "8/8/8 w - - 0 1" --depth 1
expect_error perft --variant chess --fen "" --depth 1
expect_error perft --variant chess --moves "e2e5" --depth 1
expect_error perft --variant chess --moves "e2e4 zz" --depth 1
expect_error perft --variant chess
expect_error nonesuch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'variant = "chess"\n[search]\nsimz = 3\n' > "$tmp/typo.toml"
printf 'not a checkpoint' > "$tmp/bad.pt"
expect_error arena --variant nonesuch --a random --b random --games 2
expect_error arena --variant chess --a mcts:sims=0 --b random --games 2
expect_error arena --variant chess --a wizard --b random --games 2
expect_error arena --variant chess --a random --b random --games 2 --record "$tmp"  # a directory
expect_error arena --variant chess --a random --b random --games 2 --pgn "$tmp"
expect_error ratings "$tmp"
expect_error selfplay --variant nonesuch --games 1 --out "$tmp/sp"
expect_error selfplay --config "$tmp/typo.toml" --games 1 --out "$tmp/sp"
expect_error selfplay --config "$tmp/missing.toml" --games 1 --out "$tmp/sp"
expect_error selfplay --variant attrition --model "$tmp/bad.pt" --games 1 --out "$tmp/sp"
expect_error selfplay --variant attrition --set selfplay.full_visits=-5 --games 1 --out "$tmp/sp"
expect_error export --variant chess --model "$tmp/bad.pt" --out "$tmp/x.ts"
expect_error export --variant chess --format tflite --out "$tmp/x.ts"
models=$(dirname "$0")/../models
expect_error grow --model "$tmp/bad.pt" --out "$tmp/g.pt" --blocks 8
expect_error grow --model "$models/losalamos.pt" --out "$tmp/g.pt"
expect_error grow --model "$models/losalamos.pt" --out "$tmp/g.pt" --blocks 1
expect_error grow --model "$models/losalamos.pt" --out "$tmp/g.pt" --filters 0
expect_ok grow --model "$models/losalamos.pt" --out "$tmp/g.pt" --blocks 10 --filters 72
expect_ok arena --variant losalamos --a net:model="$tmp/g.pt",sims=8 --b random --games 2
expect_error export --variant chess --format onnx --out "$tmp/x.json"
expect_error train --config "$tmp/typo.toml" --run-dir "$tmp/run"
expect_error train --run-dir "$tmp/empty-run"
expect_error loop --run-dir "$tmp/loop1" --set loop.gate='"maybe"'
expect_error loop --run-dir "$tmp/loop2" --set loop.anchors='["uci:cmd=/nonexistent/engine,depth=1"]'
expect_error loop --run-dir "$tmp/loop3" --set loop.openings="\"$tmp/missing-openings.txt\""
expect_error bench nn --variant chess --device cuda:7
expect_error play --variant chess --opponent wizard
expect_error play --variant chess --opponent net:model="$tmp/bad.pt"
expect_error play --variant attrition-4p --seat 4
expect_error serve
# play and arena read a config as loop does: every key checked, a directory refused.
printf 'variant = "chess"\nsearchh = 3\n[search]\nsimulations = 4\n' > "$tmp/unknown-key.toml"
printf 'variant = "chess"\n[serch]\nsimulations = 4\n' > "$tmp/unknown-table.toml"
printf 'variant = "chess"\n[search]\nsimulations = 4\n[loop]\ngenerations = 1\n' > "$tmp/good.toml"
for cfg in "$tmp/typo.toml" "$tmp/unknown-key.toml" "$tmp/unknown-table.toml" "$tmp" "$tmp/missing.toml"; do
  expect_error play --variant chess --watch --opponent random --config "$cfg"
  expect_error arena --variant chess --a mcts:sims=4 --b random --games 2 --config "$cfg"
done
expect_error loop --config "$tmp" --run-dir "$tmp/loop-dir-config"
[ ! -e "$tmp/loop-dir-config/config.toml" ] || { echo "FAIL: loop ran on a directory as config"; fails=$((fails + 1)); }
expect_ok arena --variant chess --a mcts:sims=4 --b random --games 2 --config "$tmp/good.toml"
# Roles of a shared run folder, and ranks of distributed training.
expect_error selfplay --follow --games 1
expect_error selfplay --run-dir "$tmp/roles" --variant chess
expect_error gate --config "$tmp/typo.toml" --run-dir "$tmp/roles"
expect_error gate
mkdir -p "$tmp/roles/models" && echo "generation x" > "$tmp/roles/models/current.txt"
expect_error selfplay --run-dir "$tmp/roles" --games 1
WORLD_SIZE=2 RANK=2 expect_error train --run-dir "$tmp/ranks"
WORLD_SIZE=2 RANK=0 MASTER_ADDR=127.0.0.1 expect_error train --run-dir "$tmp/ranks"
WORLD_SIZE=2 RANK=0 expect_error train --run-dir "$tmp/ranks"
expect_ok arena --variant attrition --a mcts:sims=20 --b random --games 2
# srun with several tasks but no MPI job joining them: each would play the whole match.
SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=4 expect_error arena --variant attrition --a random --b random --games 2
# A launcher that says 3 ranks where MPI joins one (srun with a PMI plugin this MPI cannot use).
PMI_SIZE=3 PMI_RANK=0 expect_error arena --variant attrition --a random --b random --games 2
SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=1 expect_ok arena --variant attrition --a random --b random --games 2
expect_ok encoding --variant world
expect_ok perft --variant chess --depth 2 --divide
expect_ok perft --variant chess --moves "e2e4 e7e5 g1f3" --depth 2
expect_ok variants
# Long commands print progress on stderr, and nothing there with --quiet.
err=$("$vz" openings --variant losalamos --candidates 4 --keep 2 --sims 8 --evaluator heuristic 2>&1 >/dev/null)
case "$err" in *"openings: 4/4 candidates measured"*) ;; *) echo "FAIL: openings progress '$err'"; fails=$((fails + 1));; esac
err=$("$vz" openings --variant losalamos --candidates 4 --keep 2 --sims 8 --evaluator heuristic --quiet 2>&1 >/dev/null)
[ -z "$err" ] || { echo "FAIL: openings --quiet printed '$err'"; fails=$((fails + 1)); }
err=$("$vz" arena --variant losalamos --a random --b random --games 2 --quiet 2>&1 >/dev/null)
[ -z "$err" ] || { echo "FAIL: arena --quiet printed '$err'"; fails=$((fails + 1)); }
"$vz" --help >/dev/null 2>&1 && "$vz" arena --help | grep -q -- '--games INT:INT in \[1 - 1000000\]=20' ||
  { echo "FAIL: arena --help shows no defaults"; fails=$((fails + 1)); }
out=$("$vz" perft --variant chess --depth 3 | tail -n1)
case "$out" in "nodes 8902 time_ms "*" nps "*) ;; *) echo "FAIL: last line '$out'"; fails=$((fails + 1));; esac
n=$("$vz" perft --variant grand --depth 2 --divide | grep -c ': ')
[ "$n" -eq 65 ] || { echo "FAIL: divide printed $n lines"; fails=$((fails + 1)); }
"$vz" variants | cut -f1 | grep -qx chess || { echo "FAIL: variants lacks chess"; fails=$((fails + 1)); }
# Shogi: malformed FEN and SFEN, a drop onto an occupied square, a second
# unpromoted pawn on a file (nifu), "+" on pieces that cannot promote.
expect_error perft --variant shogi --fen "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN[] w - - 0 1" --depth 1
expect_error perft --variant shogi --fen "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1" --depth 1
expect_error perft --variant shogi --fen "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK+GSNL b - 1" --depth 1
expect_error perft --variant shogi --fen "4k4/9/9/9/9/9/9/9/4K4[P] w - - 0 1" --moves "P@e1" --depth 1
expect_error perft --variant shogi --fen "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1" --moves "P@e5" --depth 1
expect_error perft --variant shogi --fen "4k4/9/9/9/9/9/4P4/4P4/4K4[] w - - 0 1" --depth 1
expect_error perft --variant minishogi --fen "2k2/5/5/5/K4[] w - - x 1" --depth 1
expect_error perft --variant shogi --moves "e1e2+" --depth 1
expect_error perft --variant shogi --fen "4k4/9/4G4/9/9/9/9/9/4K4[] w - - 0 1" --moves "e7e8+" --depth 1
expect_error perft --variant shogi --moves "h3h4+" --depth 1
expect_error perft --variant minishogi --fen "rbsgk/4p/5/P4/KGSBR[] w - - 0" --moves "a2a3q" --depth 1
expect_ok perft --variant shogi --fen "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" --depth 2
expect_ok perft --variant shogi --fen "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1" --moves "P@d5" --depth 1
# Matches with openings, SPRT, records and PGN; ratings over games files.
printf 'moves: N@d4\nmoves: N@d4 zz\n' > "$tmp/bad-openings.txt"
printf 'moves: N@d4\n' > "$tmp/openings.txt"
printf '{"match": 1}\n' > "$tmp/corrupt.jsonl"
expect_error arena --variant attrition --a random --b random --games 2 --openings "$tmp/missing.txt"
expect_error arena --variant attrition --a random --b random --games 2 --openings "$tmp/bad-openings.txt"
expect_error arena --variant attrition --a random --b random --games 2 --openings "$tmp/openings.txt" --opening 2
expect_error arena --variant attrition --a random --b random --games 2 --sprt elo0=5,elo1=0
expect_error arena --variant attrition --a random --b random --games 2 --sprt elo0=0
expect_error arena --variant attrition --a random --b random --games 2 --sprt elo0=0,elo1=400
expect_error arena --variant attrition-3p --a random --b random --games 3 --sprt elo0=0,elo1=5
expect_error arena --variant attrition-3p --a random --b random --games 3 --pgn "$tmp/x.pgn"
expect_error arena --variant attrition --a random --b random --games 2 --record "$tmp/corrupt.jsonl"
expect_error arena --variant attrition --a random --b random --games 2 --record "$tmp/no/such/dir.jsonl"
expect_error arena --variant chess --a uci:cmd=/nonexistent/engine,depth=1 --b random --games 2
expect_error arena --variant chess --a uci:cmd=/usr/games/fairy-stockfish --b random --games 2
expect_error arena --variant attrition --a uci:cmd=/usr/games/fairy-stockfish,depth=1 --b random --games 2
expect_error arena --variant chess --a uci:cmd=/bin/true,depth=1 --b random --games 2
expect_error ratings "$tmp/missing.jsonl"
expect_error ratings "$tmp/corrupt.jsonl"
expect_error ratings
expect_ok arena --variant attrition --a mcts:sims=20 --b random --games 4 --openings "$tmp/openings.txt" \
  --record "$tmp/games.jsonl" --pgn "$tmp/games.pgn" --sprt elo0=0,elo1=200
expect_error arena --variant attrition --a mcts:sims=20 --b random --games 2 --record "$tmp/games.jsonl"  # other openings: refused
expect_ok arena --variant attrition --a random --b mcts:sims=20 --games 4 --record "$tmp/games.jsonl"
expect_ok ratings "$tmp/games.jsonl" --anchor random=0 --csv "$tmp/ratings.csv"
expect_error ratings "$tmp/games.jsonl" --anchor nobody=0
expect_error ratings "$tmp/games.jsonl" --anchor random
expect_error ratings "$tmp/games.jsonl" --prior 0
# Matches in parts (--part K/N) joined by --merge.
expect_error arena --a random --b random --games 2
expect_error arena --variant attrition --a random --b random --games 2 --part 3/2
expect_error arena --variant attrition --a random --b random --games 2 --part 0/2
expect_error arena --variant attrition --a random --b random --games 2 --part 1/2/3
expect_error arena --variant attrition --a random --b random --games 2 --part half
expect_error arena --merge "$tmp/games.jsonl"  # two matches in it
expect_error arena --merge "$tmp/games.jsonl" --match nobody
expect_error arena --merge "$tmp/games.jsonl" --match "random vs mcts:sims=20" --a random
expect_error arena --merge "$tmp/games.jsonl" --match "random vs mcts:sims=20" --variant chess
expect_error arena --merge "$tmp/games.jsonl" --match "random vs mcts:sims=20" --games 9
expect_error arena --merge "$tmp/missing.jsonl"
expect_error arena --merge "$tmp/corrupt.jsonl"
expect_ok arena --merge "$tmp/games.jsonl" --match "random vs mcts:sims=20" --games 4
[ "$(head -1 "$tmp/ratings.csv")" = "rank,player,games,score,elo,margin" ] || { echo "FAIL: ratings.csv header"; fails=$((fails + 1)); }
out=$("$vz" arena --variant attrition --a mcts:sims=20 --b random --games 6 --openings "$tmp/openings.txt" \
  --record "$tmp/games.jsonl" 2>/dev/null | tail -n1)
case "$out" in "score "*" wins "*" draws "*" losses "*" elo "*" +- "*) ;; *) echo "FAIL: arena last line '$out'"; fails=$((fails + 1));; esac
# scripts/strength.sh: bad input stops before any game, one line and exit 2.
strength_error() {
  local err rc
  err=$(env VZERO="$vz" "$@" bash "$(dirname "$0")/../scripts/strength.sh" ascending 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(printf '%s' "$err" | grep -c '')" -ne 1 ]; then
    echo "FAIL (rc=$rc): $* scripts/strength.sh ascending"; echo "$err"; fails=$((fails + 1))
  fi
}
strength_error FIXED=abc
strength_error FIXED=0
strength_error FIXED=-5
echo "cli_errors: $fails failures"
[ "$fails" -eq 0 ]
