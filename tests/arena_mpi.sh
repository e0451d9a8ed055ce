#!/usr/bin/env bash
# Batch evaluation on loopback: one match played by one process, by
# `mpirun -np 2` (the ranks split the games, rank 0 prints the report and
# writes the games file) and by two parts (`--part 1/2`, `--part 2/2`) joined
# with `arena --merge`. The reports must be identical, the games files must
# hold the same games, and an SPRT must stop at the same pair. A rerun of the
# MPI match resumes every game from its file.
# Usage: tests/arena_mpi.sh VZERO
set -euo pipefail
vzero="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "arena mpi: $*"; exit 1; }
mpi=(mpirun --allow-run-as-root --oversubscribe -np 2)
players=(arena --variant attrition --a mcts:sims=30,evaluator=heuristic --b random --seed 5 --opening 2)
match=("${players[@]}" --games 12)
sprt=("${players[@]}" --games 60 --sprt elo0=0,elo1=200,model=logistic)

"$vzero" "${match[@]}" --record "$dir/one.jsonl" > "$dir/one.txt" 2> /dev/null
"${mpi[@]}" "$vzero" "${match[@]}" --record "$dir/mpi.jsonl" > "$dir/mpi.txt" 2> "$dir/mpi.err" ||
  fail "mpirun failed: $(cat "$dir/mpi.err")"
diff "$dir/one.txt" "$dir/mpi.txt" > /dev/null || fail "mpirun -np 2 differs: $(diff "$dir/one.txt" "$dir/mpi.txt")"
for k in 1 2; do "$vzero" "${match[@]}" --part "$k/2" --record "$dir/part$k.jsonl" > /dev/null 2>&1; done
"$vzero" arena --merge "$dir/part1.jsonl" "$dir/part2.jsonl" --games 12 > "$dir/merged.txt"
diff "$dir/one.txt" "$dir/merged.txt" > /dev/null || fail "--merge differs: $(diff "$dir/one.txt" "$dir/merged.txt")"

/usr/bin/python3 - "$dir" <<'PY' || fail "the games files differ"
import json, sys
def games(*paths):
    out = []
    for p in paths:
        out += [(g["index"], g["opening"], g["moves"], g["result"]) for g in map(json.loads, open(p))]
    return sorted(out, key=lambda g: g[0])
d = sys.argv[1]
one = games(d + "/one.jsonl")
assert len(one) == 12 and [g[0] for g in one] == list(range(12))
assert games(d + "/mpi.jsonl") == one, "mpirun"
assert games(d + "/part1.jsonl", d + "/part2.jsonl") == one, "parts"
PY

"${mpi[@]}" "$vzero" "${match[@]}" --record "$dir/mpi.jsonl" > "$dir/again.txt" 2> /dev/null
head -n 1 "$dir/again.txt" | grep -q "^games 12 resumed 12 " || fail "the rerun did not resume: $(head -n 1 "$dir/again.txt")"
test "$(tail -n 1 "$dir/again.txt")" = "$(tail -n 1 "$dir/one.txt")" || fail "the resumed result differs"
test "$(wc -l < "$dir/mpi.jsonl")" -eq 12 || fail "the rerun wrote games again"

"$vzero" "${sprt[@]}" > "$dir/sprt-one.txt" 2> /dev/null
grep -q "result H1" "$dir/sprt-one.txt" || fail "the SPRT did not decide: $(cat "$dir/sprt-one.txt")"
"${mpi[@]}" "$vzero" "${sprt[@]}" > "$dir/sprt-mpi.txt" 2> /dev/null
diff "$dir/sprt-one.txt" "$dir/sprt-mpi.txt" > /dev/null || fail "SPRT under mpirun differs: $(diff "$dir/sprt-one.txt" "$dir/sprt-mpi.txt")"
for k in 1 2; do "$vzero" "${sprt[@]}" --part "$k/2" --record "$dir/sprt$k.jsonl" > /dev/null 2>&1; done
"$vzero" arena --merge "$dir/sprt1.jsonl" "$dir/sprt2.jsonl" --games 60 --sprt elo0=0,elo1=200,model=logistic > "$dir/sprt-merged.txt"
diff "$dir/sprt-one.txt" "$dir/sprt-merged.txt" > /dev/null || fail "SPRT --merge differs"

# A missing part is named, not silently left out.
rc=0
"$vzero" arena --merge "$dir/part1.jsonl" --games 12 > /dev/null 2> "$dir/err" || rc=$?
test "$rc" -eq 2 && grep -q "is missing" "$dir/err" || fail "a missing part: status $rc, $(cat "$dir/err")"
echo "arena mpi ok: $(tail -n 1 "$dir/one.txt")"
