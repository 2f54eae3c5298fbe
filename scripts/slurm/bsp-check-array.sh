#!/usr/bin/env bash
# A Slurm job array that spreads one bsp-check session over many nodes (docs/ci.md).
#
#   sbatch --array=0-63 scripts/slurm/bsp-check-array.sh ./prog [args...]
#   # when the array has finished (e.g. sbatch --dependency=afterany:<jobid>):
#   SHARD_DIR=bspcheck-shards scripts/slurm/bsp-check-array.sh --merge
#
# Each array task runs `bsp-check run --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` of the
# same (p, seed) space and writes its JSON report; the merge step joins them into one JSON, SARIF
# and JUnit report. The environment says what to run: BSPCHECK (the driver, default bsp-check),
# PROCS (default 1-8), SEEDS (per p, default 10000), SHARD_DIR (default bspcheck-shards),
# EXTRA (more run options, e.g. "--strategy pct --timeout 60").
#SBATCH --job-name=bsp-check
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --output=bsp-check-%A_%a.log
set -euo pipefail
bspcheck="${BSPCHECK:-bsp-check}"
dir="${SHARD_DIR:-bspcheck-shards}"
mkdir -p "$dir"
if [ "${1:-}" = --merge ]; then
  shopt -s nullglob
  reports=("$dir"/shard-*.json)
  [ ${#reports[@]} -gt 0 ] || { echo "bsp-check-array: no shard reports in $dir" >&2; exit 2; }
  exec "$bspcheck" merge --json "$dir/merged.json" --sarif "$dir/merged.sarif" --junit "$dir/merged.xml" "${reports[@]}"
fi
[ $# -ge 1 ] || { echo "usage: sbatch --array=0-N $0 PROGRAM [ARGS...] | $0 --merge" >&2; exit 2; }
: "${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=0-63 $0 PROGRAM}"
count="${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))}"
index=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
# shellcheck disable=SC2086
exec "$bspcheck" run -q -p "${PROCS:-1-8}" --seeds "${SEEDS:-10000}" --keep-going ${EXTRA:-} \
  --shard "$index/$count" --json "$dir/shard-$index.json" -- "$@"
