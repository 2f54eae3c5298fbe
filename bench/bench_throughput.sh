#!/usr/bin/env bash
# bench_throughput.sh: schedules per second of `bsp-check run -p 4 --seeds N` on a small program
# (examples/hello), with one driver thread (-j 1) and with one per core, each with a forked child
# per run and with the fork server's workers (runtime/isolation/process_snapshot.hpp), side by side; with
# BASELINE=/path/to/an/older/bsp-check (and BASELINE_PROGRAM, its build of hello) the older
# driver too, so that the ratio is measured on the same machine at the same moment.
#
#   bench/bench_throughput.sh [BUILD_DIR] [SEEDS]      (defaults: <repo>/build, 2000)
#
# Prints one markdown row per configuration: wall seconds (median of BENCH_REPS, default 3),
# schedules per second and the CPU time per schedule (driver, servers and runs together). The last
# rows are bench_deep_stack_program.c at -j 1, whose process 0 grows the main stack past its first
# mapping in every run (built with the build's bspcc, and the baseline's when BASELINE has one).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
seeds=${2:-2000}
reps=${BENCH_REPS:-3}
bsp_check="$build/tools/bsp-check"
hello="$build/examples/hello"
[ -x "$bsp_check" ] && [ -x "$hello" ] || { echo "bench_throughput: build $build first (bsp-check, examples/hello)" >&2; exit 2; }

measure() {  # label, then the command; prints a row
  local label=$1; shift
  local walls=() cpus=()
  for _ in $(seq "$reps"); do
    local t tf
    tf=$(mktemp)
    /usr/bin/time -o "$tf" -f "%e %U %S" "$@" >/dev/null 2>&1 || true
    t=$(tail -1 "$tf")
    rm -f "$tf"
    walls+=("$(cut -d' ' -f1 <<<"$t")")
    cpus+=("$(awk '{print $2 + $3}' <<<"$t")")
  done
  local wall cpu
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
  cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v n="$seeds" \
    'BEGIN { printf "| %s | %.2f | %.0f | %.0f |\n", l, w, n / w, c / n * 1e6 }'
}

echo "| configuration (run -p 4 --seeds $seeds hello) | wall s | schedules/s | CPU us per schedule |"
echo "|---|---|---|---|"
if [ -n "${BASELINE:-}" ]; then
  measure "baseline, -j 1" "$BASELINE" run -j 1 -p 4 --seeds "$seeds" "${BASELINE_PROGRAM:-$hello}"
  measure "baseline, -j $(nproc) (the default)" "$BASELINE" run -p 4 --seeds "$seeds" "${BASELINE_PROGRAM:-$hello}"
fi
# A fresh forked child per run (BSPCHECK_RUNS_PER_WORKER=1, as before workers) and workers that
# make run after run (the default), side by side.
measure "-j 1, a forked child per run" env BSPCHECK_RUNS_PER_WORKER=1 "$bsp_check" run -j 1 -p 4 --seeds "$seeds" "$hello"
measure "-j 1, workers" "$bsp_check" run -j 1 -p 4 --seeds "$seeds" "$hello"
measure "-j $(nproc), a forked child per run" env BSPCHECK_RUNS_PER_WORKER=1 "$bsp_check" run -p 4 --seeds "$seeds" "$hello"
measure "-j $(nproc) (one per core, the default), workers" "$bsp_check" run -p 4 --seeds "$seeds" "$hello"

# A process 0 that goes deep on the main stack, at -j 1.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${BASELINE:-}" ] && [ -x "$(dirname "$(dirname "$BASELINE")")/bspcc" ]; then
  "$(dirname "$(dirname "$BASELINE")")/bspcc" -O1 -o "$work/deep_baseline" "$here/bench_deep_stack_program.c"
  measure "baseline, -j 1, deep process 0" "$BASELINE" run -j 1 -p 4 --seeds "$seeds" "$work/deep_baseline"
fi
"$build/bspcc" -O1 -o "$work/deep" "$here/bench_deep_stack_program.c"
measure "-j 1, workers, deep process 0" "$bsp_check" run -j 1 -p 4 --seeds "$seeds" "$work/deep"
