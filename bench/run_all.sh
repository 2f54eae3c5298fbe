#!/bin/sh
# run_all.sh: build the benchmarks in a Release tree and run them all; prints one markdown table
# (the figures recorded in docs/performance.md) on stdout.
#
#   bench/run_all.sh [--callgrind]
#
# Environment:
#   BUILD_DIR    build tree (default: <repo>/build-bench)
#   BENCH_REPS   repetitions per figure, the median is reported (default 5)
#   BENCH_CLOCK  wall (default) or cpu: CPU time of the process instead of wall time, which is
#                the fairer figure on a shared, loaded machine
#   BENCH_SCALE  scale factor for iteration counts (default 1; 0.1 for a quick smoke run)
#   BENCH_RING_STEPS  ring supersteps per run in bench_scale (default 5)
#   BENCH_EMPTY_STEPS empty supersteps per run in bench_scale, after the ring (default 5)
# --callgrind additionally counts instructions per switch and per call with valgrind (slow-ish,
# about a minute; needs valgrind).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${BUILD_DIR:-$repo/build-bench}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBSPCHECK_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$jobs" --target bench_switch bench_comm bench_scale bench_bigput bench_checks bench_throw \
  bench_throw_native >/dev/null

b="$build/bench"
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
rev=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)
echo "Machine: $(nproc) CPUs, $cpu; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Revision: $rev; clock: ${BENCH_CLOCK:-wall}; repetitions: ${BENCH_REPS:-5} (median)"
echo
echo "| benchmark | parameters | figure | unit | notes |"
echo "|---|---|---|---|---|"
"$b/bench_switch"
"$b/bench_comm" 4
"$b/bench_scale"
"$b/bench_bigput"
"$b/bench_checks"
"$b/bench_throw_native"
"$b/bench_throw"

if [ "${1:-}" = "--callgrind" ]; then
  # Instructions per iteration from the difference of two runs (n and 2n), so that start-up and
  # teardown cancel out.
  ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b/bench_switch" one "$@" 2>&1 |
      sed -n 's/.*Collected : //p'
  }
  echo
  echo "| callgrind | configuration | instructions | per |"
  echo "|---|---|---|---|"
  n=100000
  for cfg in "fcontext 0 -" "switch_context 0 -" "qsize 1 random" "qsize 2 rr" "qsize 8 rr" "qsize 2 random" "qsize 8 random" "put0 2 rr" "mixed 2 rr"; do
    set -- $cfg
    strat=$3
    [ "$strat" = rr ] || strat=""
    a=$(ir "$1" "$2" $n $strat)
    c=$(ir "$1" "$2" $((2 * n)) $strat)
    case $1 in
      fcontext|switch_context) echo "| $1 | ping-pong | $(( (c - a) / (2 * n) )) | switch |" ;;
      qsize) echo "| bsp_qsize | p=$2, $3 | $(( (c - a) / ($2 * n) )) | call |" ;;
      put0) echo "| bsp_put 0 bytes | p=$2, $3 | $(( (c - a) / ($2 * n) )) | call |" ;;
      mixed) echo "| mixed qsize/put | p=$2, $3 | $(( (c - a) / ($2 * n) )) | call |" ;;
    esac
  done
fi
