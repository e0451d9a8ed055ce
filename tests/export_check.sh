#!/usr/bin/env bash
# Writes small checkpoints (net_tests "[.export-models]") and exports each
# with `vzero export --format all --golden 64` into DIR, for check_export.py
# and onnx-js/check.mjs. Also checks the export command's bad input.
# Usage: export_check.sh VZERO NET_TESTS DIR
set -euo pipefail
vzero="$1" net_tests="$2" dir="$3"
rm -rf "$dir"
mkdir -p "$dir"
VZERO_EXPORT_DIR="$dir" "$net_tests" "[.export-models]" > /dev/null
while read -r name variant; do
  "$vzero" export --variant "$variant" --model "$dir/$name.pt" --format all --out "$dir/$name" --golden 64 --seed 5
  test -s "$dir/$name.onnx" && test -s "$dir/$name.ts" && test -s "$dir/$name.json"
  test -s "$dir/$name.golden/manifest.json"
done < "$dir/cases.txt"
# A single format; bad input (more in cli_errors.sh): one line on stderr, exit status 2.
"$vzero" export --variant chess --format onnx --out "$dir/fresh.onnx" --set model.blocks=1 \
  --set model.value_head='"wdl"' > /dev/null
test -s "$dir/fresh.onnx" && grep -q '"name": "wdl"' "$dir/fresh.json"
expect_error() {
  local err rc=0
  err=$("$vzero" "$@" 2>&1 > /dev/null) || rc=$?
  if [ "$rc" -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
    echo "FAIL (rc=$rc): vzero $*"; echo "$err"; exit 1
  fi
}
expect_error export --variant chess --model "$dir/chess.pt" --format onnx --out "$dir/nonesuch/x.onnx"
expect_error export --variant grand --model "$dir/chess.pt" --format onnx --out "$dir/x.onnx"
expect_error export --variant chess --model "$dir/chess.pt" --set model.blocks=1 --out "$dir/x.ts"
expect_error export --variant attrition-3p --set model.value_head='"wdl"' --out "$dir/x.ts"
expect_error export --variant chess --set model.global_pooling=-1 --out "$dir/x.ts"
echo "export models ok: $(wc -l < "$dir/cases.txt") cases in $dir"
