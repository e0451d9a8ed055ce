#!/usr/bin/env bash
# Regenerates the per-variant tables of docs/encoding.md from `vzero encoding`.
set -euo pipefail
cd "$(dirname "$0")/.."
vzero=./build/cli/vzero
head="$(sed '/^### /,$d' docs/encoding.md)"
{ printf '%s\n\n' "$head"; for v in $($vzero variants | cut -f1); do $vzero encoding --variant "$v"; echo; done; } > docs/encoding.md.tmp
mv docs/encoding.md.tmp docs/encoding.md
