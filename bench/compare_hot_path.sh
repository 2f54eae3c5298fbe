#!/usr/bin/env bash
# bench/compare_hot_path.sh BUILD_A BUILD_B: the engine's hot path in two builds side by side, in
# instructions counted by callgrind (the same count for the same binary and input whatever else
# the machine does, so a loaded machine compares two builds fairly; valgrind from Debian).
#   switch      the runtime's switch_context, a ping-pong (per switch)
#   bsp_qsize   a BSPlib call that is a switch point, p = 2 round-robin and p = 8 random (per call)
#   put 0 bytes the same with a 0-byte bsp_put, p = 2 round-robin (per call)
#   empty step  an empty superstep (every process only syncs) at p = 1,000 (per process)
#   messages    bench_comm at p = 4 scaled to 10^4 operations of each kind (the whole run)
# Each per-item figure is the difference of two runs (n and 2n) over n, so start-up cancels out.
# Both builds are Release builds of the bench targets (bench/run_all.sh makes one in build-bench).
set -eu
a=${1:?usage: compare_hot_path.sh BUILD_A BUILD_B}
b=${2:?usage: compare_hot_path.sh BUILD_A BUILD_B}
command -v valgrind >/dev/null || { echo "compare_hot_path: valgrind is not installed" >&2; exit 2; }

ir() {  # instructions of one run: ir BUILD PROGRAM ARGS... (bench_scale measures in a forked
  # child, which valgrind follows: the process that worked most is the one measured)
  local build=$1; shift
  local prog=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/bench/$prog" "$@" 2>&1 |
    sed -n 's/.*Collected : //p' | sort -n | tail -1
}
per() {  # per BUILD N DIVISOR PROGRAM ARGS-WITH-@N@: instructions per item from runs of N and 2N
  local build=$1 n=$2 div=$3; shift 3
  local prog=$1; shift
  local x y
  x=$(ir "$build" "$prog" $(printf '%s\n' "$@" | sed "s/@N@/$n/"))
  y=$(ir "$build" "$prog" $(printf '%s\n' "$@" | sed "s/@N@/$((2 * n))/"))
  echo $(( (y - x) / div ))
}
empty_step() {  # per process and empty superstep at p = 1000
  local build=$1 x y
  x=$(BENCH_REPS=1 BENCH_RING_STEPS=1 BENCH_EMPTY_STEPS=10 ir "$build" bench_scale 1000 64)
  y=$(BENCH_REPS=1 BENCH_RING_STEPS=1 BENCH_EMPTY_STEPS=20 ir "$build" bench_scale 1000 64)
  echo $(( (y - x) / (10 * 1000) ))
}
messages() { BENCH_REPS=1 BENCH_SCALE=0.01 ir "$1" bench_comm 4 ; }

n=100000
printf '| hot path | %s | %s | B/A |\n|---|---|---|---|\n' "$a" "$b"
row() {
  local name=$1 x=$2 y=$3
  printf '| %s | %s | %s | %s |\n' "$name" "$x" "$y" "$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.3f", y / x }')"
}
row "switch (instructions per switch)" "$(per "$a" $n $((2 * n)) bench_switch one switch_context 0 @N@)" \
    "$(per "$b" $n $((2 * n)) bench_switch one switch_context 0 @N@)"
row "bsp_qsize, p = 2 rr (per call)" "$(per "$a" $n $((2 * n)) bench_switch one qsize 2 @N@ rr)" \
    "$(per "$b" $n $((2 * n)) bench_switch one qsize 2 @N@ rr)"
row "bsp_qsize, p = 8 random (per call)" "$(per "$a" $n $((8 * n)) bench_switch one qsize 8 @N@)" \
    "$(per "$b" $n $((8 * n)) bench_switch one qsize 8 @N@)"
row "bsp_put 0 bytes, p = 2 rr (per call)" "$(per "$a" $n $((2 * n)) bench_switch one put0 2 @N@ rr)" \
    "$(per "$b" $n $((2 * n)) bench_switch one put0 2 @N@ rr)"
row "empty superstep, p = 1000 (per process)" "$(empty_step "$a")" "$(empty_step "$b")"
row "messages: bench_comm p = 4, 10^4 of each (whole run)" "$(messages "$a")" "$(messages "$b")"
