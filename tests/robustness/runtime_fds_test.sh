#!/usr/bin/env bash
# A program that closes every descriptor above 2 in the middle of its run (issue 43, item 6)
# does not break bsp-check: the trace a single run records for its determinism self-check, a
# --trace recording and its replay, and the per-process globals all survive close, close_range
# and closefrom, and the program's own next file is still 3.
#   runtime_fds_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
b="$BSPCHECK"
compile close_all_fds
prog="$work/close_all_fds"
for how in loop range from; do
  # Many runs (fork server, globals' memfd at p > 1), and the output compared across seeds.
  expect 0 "runs clean" -- "$b" run -p 1-3 --seeds 4 "$prog" "$how"
  # A single run records a trace for the determinism self-check: no uncontrolled-nondeterminism
  # from a trace cut short, and the program's numbering is its own.
  expect 0 "^1: got 3 counter 6 next fd 3$" -- "$b" run -p 2 --seed 1 "$prog" "$how"
  out="$("$b" run -p 2 --seed 1 "$prog" "$how" 2>&1 </dev/null)"
  grep -qE "uncontrolled-nondeterminism|trace" <<<"$out" && { echo "FAIL: $how: single run: $out"; fail=1; }
  # --trace, then replay and show of the recording.
  expect 0 "runs clean|got" -- "$b" run -p 3 --seed 2 --trace "$work/$how.trace" "$prog" "$how"
  expect 0 "1 of 1 run|clean|got" -- "$b" replay "$work/$how.trace"
  expect 0 "superstep" -- "$b" show "$work/$how.trace"
done
no_leftovers "programs that close every descriptor"
[ "$fail" = 0 ] && echo "runtime descriptors test: ok"
exit "$fail"
