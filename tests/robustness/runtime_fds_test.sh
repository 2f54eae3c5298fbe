#!/usr/bin/env bash
# No descriptor of bsp-check is the program's business (issue 43, item 6). A program that closes
# every descriptor above 2 in the middle of its run does not break bsp-check: the trace a single
# run records for its determinism self-check, a --trace recording and its replay, and the
# per-process globals all survive close, close_range and closefrom, and the program's own next
# file is still 3. A program that lists its own descriptors (/proc/self/fd, /dev/fd) or probes
# fcntl(F_GETFD) on 3..1023 to look for leaks sees no more of them under bsp-check than when run
# alone: in a single run, at p = 3, with --trace and in replay.
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

compile list_own_fds
lister="$work/list_own_fds"
# strangers OUTPUT-FILE: the descriptors the program reported, one per line, sorted.
strangers() { grep -oE "stranger descriptor [0-9]+" "$1" | awk '{print $3}' | sort -un; }
"$lister" >"$work/alone.out" 2>&1 </dev/null  # what this environment hands down (a CI runner's)
grep -q "stranger(s)" "$work/alone.out" || { echo "FAIL: the lister did not run alone"; fail=1; }
strangers "$work/alone.out" >"$work/alone.fds"
check_listing() {  # check_listing WHAT: $work/under.out against what the program saw alone
  grep -q "stranger(s)" "$work/under.out" || { echo "FAIL: $1: the lister did not run"; fail=1; return; }
  local extra
  extra="$(strangers "$work/under.out" | comm -23 - "$work/alone.fds" | tr '\n' ' ')"
  [ -z "$extra" ] || { echo "FAIL: $1: the program sees bsp-check's descriptors: $extra"; fail=1; }
}
"$b" run -p 2 --seed 1 "$lister" >"$work/under.out" 2>&1 </dev/null; check_listing "a single run"
"$b" run -p 3 --seeds 3 -v "$lister" >"$work/under.out" 2>&1 </dev/null; check_listing "runs at p = 3"
"$b" run -p 2 --seed 1 --trace "$work/list.trace" "$lister" >"$work/under.out" 2>&1 </dev/null; check_listing "--trace"
"$b" replay "$work/list.trace" >"$work/under.out" 2>&1 </dev/null; check_listing "replay"
no_leftovers "programs that close every descriptor"
[ "$fail" = 0 ] && echo "runtime descriptors test: ok"
exit "$fail"
