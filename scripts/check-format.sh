#!/usr/bin/env bash
# Checks that every tracked C++ file is formatted by .clang-format (Debian's
# clang-format 14); prints the files that are not and exits 1. With --fix,
# formats them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.hpp' '*.cc')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  printf 'not formatted: %s\n' "${bad[@]}"
  echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (bash scripts/check-format.sh --fix)"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
