#!/usr/bin/env bash
# bench_driver_overheads.sh: what the driver adds around one run (issue 47, goals 5 and 6), side by
# side in one run, the configurations interleaved and each figure the median wall time of
# BENCH_REPS (default 5):
#   - recording (`bsp-check run --trace`) and replaying (`bsp-check replay`) a trace of
#     bench_trace_program.c (about a million BSPlib calls at p = 8), against `bsp-check run` of the
#     same seed without either (all three with --no-determinism-check);
#   - the determinism self-check: a one-run session (`--seed 7`) and a 50-run session
#     (`--seeds 50`) of examples/samplesort at p = 4 with 10^5 keys per process, with the check
#     (the default) and with --no-determinism-check.
#
#   bench/bench_driver_overheads.sh [BUILD_DIR]     (default <repo>/build)
#
# Prints markdown rows: | measure | what | ratio | x | the two medians |.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
reps=${BENCH_REPS:-5}
bsp_check="$build/tools/bsp-check"
[ -x "$bsp_check" ] && [ -x "$build/bspcc" ] && [ -x "$build/examples/samplesort" ] ||
  { echo "bench_driver_overheads: build $build first (bsp-check, bspcc, examples/samplesort)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bspcc" -O2 -o "$work/prog" "$here/bench_trace_program.c"
sort="$build/examples/samplesort"
"$bsp_check" run -q -p 8 --seed 1 --no-determinism-check --trace "$work/replayed.trace" "$work/prog" >/dev/null

names=(plain record replay one one_off fifty fifty_off)
command_of() {
  case $1 in
    plain) echo "$bsp_check run -q -p 8 --seed 1 --no-determinism-check $work/prog" ;;
    record) echo "$bsp_check run -q -p 8 --seed 1 --no-determinism-check --trace $work/recorded.trace $work/prog" ;;
    replay) echo "$bsp_check replay $work/replayed.trace" ;;
    one) echo "$bsp_check run -q -p 4 --seed 7 $sort 100000" ;;
    one_off) echo "$bsp_check run -q -p 4 --seed 7 --no-determinism-check $sort 100000" ;;
    fifty) echo "$bsp_check run -q -p 4 --seeds 50 $sort 100000" ;;
    fifty_off) echo "$bsp_check run -q -p 4 --seeds 50 --no-determinism-check $sort 100000" ;;
  esac
}
declare -A times
for _ in $(seq "$reps"); do
  for n in "${names[@]}"; do
    # Each recording goes to a new file, as a first recording does: ext4 writes a file truncated
    # from a longer one out to disk at its close (auto_da_alloc), 3-4 ms more for this trace,
    # which is the file system's price for replacing a file, not recording's (docs/performance.md).
    rm -f "$work/recorded.trace"
    start=$(date +%s.%N)
    # </dev/null: an input streamed from a pipe its writer holds open (some CI jobs) would run the
    # determinism check after the run it checks, where a file, or a pipe already closed by its
    # writer, lets it run beside (tools/launch/stdin_feed.hpp).
    if ! $(command_of "$n") >"$work/out" 2>&1 </dev/null; then
      echo "bench_driver_overheads: '$(command_of "$n")' failed:" >&2
      cat "$work/out" >&2
      exit 1
    fi
    times[$n]+="$(echo "$(date +%s.%N) - $start" | bc) "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
row() {  # label, what, numerator, denominator
  local a b
  a=$(echo "${times[$3]}" | median)
  b=$(echo "${times[$4]}" | median)
  printf '| %s | %s | %.2f | x | %.3f s against %.3f s |\n' "$1" "$2" "$(echo "$a / $b" | bc -l)" "$a" "$b"
}
echo "| measure | what | ratio | unit | medians of $reps (wall) |"
echo "|---|---|---|---|---|"
row "recording (--trace)" "bench_trace_program, p = 8, against the same run unrecorded" record plain
row "replay through bsp-check replay" "the recorded trace, against the run it recorded" replay plain
row "one-run session with the determinism check" "samplesort 10^5 keys, p = 4, --seed 7, against --no-determinism-check" one one_off
row "50-run session with the determinism check" "samplesort 10^5 keys, p = 4, --seeds 50, against --no-determinism-check" fifty fifty_off
