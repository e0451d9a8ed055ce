#!/usr/bin/env bash
# Regenerates the per-variant tables of docs/encoding.md from `vzero encoding`:
# each variant's newest encoding, then its older versions (which the models made
# with them still read).
set -euo pipefail
cd "$(dirname "$0")/.."
vzero=./build/cli/vzero
head="$(sed '/^### /,$d' docs/encoding.md)"
{
  printf '%s\n\n' "$head"
  for v in $($vzero variants | cut -f1); do
    newest="$($vzero encoding --variant "$v")"
    printf '%s\n\n' "$newest"
    versions="$(sed -n '1s/.*version [0-9]* of \([0-9]*\).*/\1/p' <<<"$newest")"
    for ((k = ${versions:-1} - 1; k >= 1; k--)); do
      $vzero encoding --variant "$v" --version "$k"
      echo
    done
  done
} > docs/encoding.md.tmp
mv docs/encoding.md.tmp docs/encoding.md
