#!/usr/bin/env bash
# bench_file_view.sh: what each run's own view of the files costs (runtime/isolation/file_view.hpp,
# issue 42) on a program that writes no file: `bsp-check run -j 1 -p 4 --seeds N` of
# examples/hello with the view (the default) and with it refused (BSPCHECK_FILE_VIEW=refuse, the
# fallback, which runs one at a time: -j 1 for both), alternating, BENCH_REPS times (default 5);
# with a forked child per run (BSPCHECK_RUNS_PER_WORKER=1) and with workers (the default).
#
#   bench/bench_file_view.sh [BUILD_DIR] [SEEDS]      (defaults: <repo>/build, 2000)
#
# Prints one markdown row per configuration: the median wall seconds and CPU microseconds per run
# (driver, servers and runs together) of each, and the ratio view / no view.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$(dirname "$here")/build}" && pwd)
seeds=${2:-2000}
reps=${BENCH_REPS:-5}
bsp_check="$build/tools/bsp-check"
hello="$build/examples/hello"
[ -x "$bsp_check" ] && [ -x "$hello" ] || { echo "bench_file_view: build $build first (bsp-check, examples/hello)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

one() {  # view (private|refuse) runs_per_worker: prints "wall cpu_seconds"
  local tf
  tf=$(mktemp)
  BSPCHECK_FILE_VIEW=$1 BSPCHECK_RUNS_PER_WORKER=$2 /usr/bin/time -o "$tf" -f "%e %U %S" \
    "$bsp_check" run -j 1 -p 4 --seeds "$seeds" "$hello" >/dev/null 2>&1 || true
  tail -1 "$tf" | awk '{print $1, $2 + $3}'
  rm -f "$tf"
}

median() { sort -n | sed -n "$(( (reps + 1) / 2 ))p"; }

echo "| configuration (run -j 1 -p 4 --seeds $seeds hello) | no view: wall s, CPU us/run | view: wall s, CPU us/run | ratio (wall, CPU) |"
echo "|---|---|---|---|"
for rpw in 1 1000; do
  label=$([ "$rpw" = 1 ] && echo "a forked child per run" || echo "workers (the default)")
  : >"$work/private" && : >"$work/refuse"
  for _ in $(seq "$reps"); do
    for view in refuse private; do one "$view" "$rpw" >>"$work/$view"; done
  done
  nw=$(cut -d' ' -f1 "$work/refuse" | median); nc=$(cut -d' ' -f2 "$work/refuse" | median)
  vw=$(cut -d' ' -f1 "$work/private" | median); vc=$(cut -d' ' -f2 "$work/private" | median)
  awk -v l="$label" -v nw="$nw" -v nc="$nc" -v vw="$vw" -v vc="$vc" -v n="$seeds" \
    'BEGIN { printf "| %s | %.2f, %.0f | %.2f, %.0f | %.3f, %.3f |\n", l, nw, nc / n * 1e6, vw, vc / n * 1e6, vw / nw, vc / nc }'
done
