#!/usr/bin/env bash
# bench_trace.sh: the cost of recording and replaying a trace, side by side with a plain run of
# the same program and seed (bench/bench_trace_program.c: about a million BSPlib calls at p = 8).
#
#   bench/bench_trace.sh [BUILD_DIR]      (default: <repo>/build)
#
# Prints a markdown table: user CPU seconds (median of BENCH_REPS, default 5), the ratio to the
# plain run, peak memory, and the trace's size per call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
reps=${BENCH_REPS:-5}
[ -x "$build/bspcc" ] || { echo "bench_trace: build $build first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bspcc" -O2 -o "$work/prog" "$here/bench_trace_program.c"

median_of() {  # options -> "user_seconds max_rss_kb"
  local rows=()
  for _ in $(seq "$reps"); do
    /usr/bin/time -o "$work/t" -f "%U %M" env BSPCHECK_OPTIONS="$1" "$work/prog" >/dev/null 2>&1 || true
    rows+=("$(tail -1 "$work/t")")
  done
  printf '%s\n' "${rows[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p"
}

plain=$(median_of "procs=8:seed=1")
record=$(median_of "procs=8:seed=1:trace=$work/t.trace")
replay=$(median_of "procs=8:seed=1:replay=$work/t.trace")
calls=$(( 8 * (2000 * 65 + 4) ))
size=$(stat -c %s "$work/t.trace")
echo "| run (p = 8, ~$calls calls) | user s | x plain | max RSS |"
echo "|---|---|---|---|"
for row in "plain:$plain" "record:$record" "replay:$replay"; do
  name=${row%%:*}; vals=${row#*:}
  awk -v n="$name" -v v="$vals" -v p="${plain%% *}" \
    'BEGIN { split(v, a, " "); printf "| %s | %.2f | %.2f | %.0f MB |\n", n, a[1], (p > 0 ? a[1] / p : 0), a[2] / 1024 }'
done
awk -v s="$size" -v c="$calls" 'BEGIN { printf "\ntrace: %.1f MB, %.1f bytes per call (choices included)\n", s / 1e6, s / c }'
