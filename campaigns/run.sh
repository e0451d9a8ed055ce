#!/usr/bin/env bash
# Starts or resumes the loop run of a campaign, for its resume.sh:
#   campaigns/run.sh NAME RUN_DIR [vzero loop options...]
# When RUN_DIR does not exist and campaigns/NAME holds a snapshot (a metrics.csv), the snapshot is
# copied there first; then `vzero loop --run-dir RUN_DIR OPTIONS` runs at nice 19 from the
# repository root. The binary is VZERO (default build/cli/vzero).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: campaigns/run.sh NAME RUN_DIR [vzero loop options...]"
name=${1:?$usage}
run=${2:?$usage}
shift 2
vzero=$(realpath "${VZERO:-build/cli/vzero}")
[ -d "$run" ] || [ ! -f "campaigns/$name/metrics.csv" ] || cp -r "campaigns/$name" "$run"
OMP_WAIT_POLICY=PASSIVE exec nice -n 19 "$vzero" loop --run-dir "$run" "$@"
