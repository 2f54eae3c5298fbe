#!/usr/bin/env bash
# What a program does to its OS process: forks (the child's output is kept, its exit writes no
# report, a BSPlib call in it ends it with a message and is the run's finding foreign-thread), stack overflows named as such at any process
# count (guard pages; beyond the mapping budget, the guard below each chunk of stacks), and
# --stack-size applies to process 0 (the main thread) too, and a p that cannot fit in memory is
# refused with the number that would. Threads calling BSPlib and exec* are
# findings of their own (tests/checks: foreign-thread, process-exec).
# Usage: os_processes_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile fork_child
compile deep_recursion
compile waits_for_a_signal
compile heap_abort
compile abort_before_begin
b="$BSPCHECK"
sanitized=0
case "$CFLAGS" in *sanitize*) sanitized=1 ;; esac

# Forked children: their output reaches the program's output, the run is clean.
for server in "" --no-fork-server; do
  for how in _exit exit; do
    # shellcheck disable=SC2086
    expect 0 "runs clean" -- "$b" run -v -p 1-3 --seeds 2 $server "$work/fork_child" "$how"
    # shellcheck disable=SC2086
    out="$("$b" run -v -p 3 --seed 1 $server "$work/fork_child" "$how" 2>&1 </dev/null)"
    for s in 0 1 2; do
      grep -q "child of pid $s\$" <<<"$out" || { echo "FAIL: fork ($how $server): child of pid $s lost"; echo "$out" | head; fail=1; }
      grep -q "parent pid $s: child status 0" <<<"$out" || { echo "FAIL: fork ($how $server): pid $s"; echo "$out" | head; fail=1; }
    done
  done
done
# A BSPlib call in a forked child ends the child (status 1) with one line, and the run reports it
# (foreign-thread, at the child's call, naming the process that forked it), with or without the
# fork server.
for server in "" --no-fork-server; do
  for call in bsp sync put; do
    line="$(grep -n "CHILD CALL: $call\b" "$(dirname "$0")/programs/fork_child.c" | cut -d: -f1)"
    name="bsp_pid"; [ "$call" = sync ] && name=bsp_sync; [ "$call" = put ] && name=bsp_put
    # shellcheck disable=SC2086
    out="$("$b" run -v -p 2 --seed 1 --trace-dir "$work" $server "$work/fork_child" "$call" 2>&1 </dev/null)"; status=$?
    what="BSPlib in a forked child ($call $server)"
    [ "$status" = 1 ] || { echo "FAIL: $what: exited $status, expected 1"; echo "$out" | tail -5; fail=1; }
    grep -q "^bsp-check: error: $name called at .*fork_child.c:$line in a child that a process forked" <<<"$out" ||
      { echo "FAIL: $what: no message from the child"; echo "$out" | head; fail=1; }
    grep -q "parent pid 1: child status 1" <<<"$out" || { echo "FAIL: $what: status"; echo "$out" | head; fail=1; }
    grep -q "error\[foreign-thread\].*a child that process 1 forked called $name" <<<"$out" ||
      { echo "FAIL: $what: not a finding of the run"; echo "$out" | tail -8; fail=1; }
    grep -q "fork_child.c:$line" <<<"$(grep -v '^bsp-check: error:' <<<"$out")" ||
      { echo "FAIL: $what: the finding is not located at fork_child.c:$line"; echo "$out" | tail -8; fail=1; }
    ! grep -qE "runs? clean" <<<"$out" || { echo "FAIL: $what: the run passed"; fail=1; }
  done
done
# Every run reports it, in a worker of the fork server that runs seed after seed too (the page
# the children keep their call in is the run's own).
expect 1 "^bsp-check: 10 of 10 runs FAILED" -- "$b" run -p 2-3 --seeds 5 --keep-going --trace-dir "$work" "$work/fork_child" put
rm -f "$work"/*.trace
no_leftovers "fork"

# Stack overflows (not under the sanitizers, whose own stack checks and larger frames differ).
# Guarded stacks: named, with the process.
if [ "$sanitized" = 0 ]; then
  expect 1 "process 1 overflowed its stack" -- "$b" run -p 2 --seed 1 --stack-size 64k "$work/deep_recursion" 200 1
  # Process 0 (the main thread): --stack-size above the main stack's limit applies to it too (12
  # MiB of recursion under 32 MiB stacks), and its overflow at the limit is named as such.
  expect 0 "runs? clean" -- "$b" run -p 2 --seed 1 --stack-size 32m "$work/deep_recursion" 12000
  out="$(bash -c "ulimit -s 8192; \"$b\" run -p 2 --seed 1 --stack-size 1m \"$work/deep_recursion\" 20000 0" 2>&1 </dev/null)"
  grep -q "process 0 overflowed its stack" <<<"$out" || { echo "FAIL: process 0's overflow not named"; echo "$out" | head -5; fail=1; }
  # The smaller direction (issue 43): under --stack-size 64k process 0 overflows a 2 MiB recursion
  # as process 1 does, and 20 KiB of it runs; at p = 1 too (no other process to compare with).
  expect 1 "process 0 overflowed its stack" -- "$b" run -p 2 --seed 1 --stack-size 64k "$work/deep_recursion" 2000 0
  expect 1 "process 0 overflowed its stack" -- "$b" run -p 1 --seed 1 --stack-size 64k "$work/deep_recursion" 2000 0
  expect 0 "runs? clean" -- "$b" run -p 1-2 --seed 1 --stack-size 64k "$work/deep_recursion" 20 0
  # Under a shell's hard limit (ulimit -s 8192) the smaller direction holds as well.
  out="$(bash -c "ulimit -s 8192; \"$b\" run -p 2 --seed 1 --stack-size 64k \"$work/deep_recursion\" 2000 0" 2>&1 </dev/null)"
  grep -q "process 0 overflowed its stack" <<<"$out" ||
    { echo "FAIL: process 0 under a hard limit and 64k: no overflow"; echo "$out" | head -5; fail=1; }
  # Above a hard limit process 0 cannot have it: the overflow says why (docs/cli.md).
  out="$(bash -c "ulimit -s 8192; \"$b\" run -p 2 --seed 1 --stack-size 32m \"$work/deep_recursion\" 12000 0" 2>&1 </dev/null)"
  grep -q "process 0 overflowed its stack.*capped by the hard stack limit" <<<"$out" ||
    { echo "FAIL: process 0 under a hard limit: the overflow does not say it is capped"; echo "$out" | head -5; fail=1; }
fi
# Beyond the mapping budget (unguarded stacks): one process's runaway recursion is named, and the
# run stops at its chunk's guard page instead of running through every stack. The budget is
# lowered for the test (BSPCHECK_MAX_MAP_COUNT, runtime/fibers/fiber_stack.cpp): with the default of recent
# distributions (about a million mappings) crossing it would take half a million processes.
map_count="$(cat /proc/sys/vm/max_map_count)"
if [ "$map_count" -gt 4000 ]; then map_count=4000; fi
export BSPCHECK_MAX_MAP_COUNT="$map_count"
budget="$(( map_count * 3 / 4 / 2 ))"
if [ "$sanitized" = 0 ]; then
  p=$((budget + 100))
  expect 1 "process 7 overflowed its stack" -- "$b" run -p "$p" --seed 1 --stack-size 16k --no-fork-server \
    "$work/deep_recursion" 100000 7
  # A recursion 1-2 KiB past a 16 KiB stack that returns before it switches: process 8's stack
  # has another stack below it in its chunk (chunks of two here), which it overwrites in part, so
  # only the canary below its stack sees it, at its next switch.
  expect 1 "process 8 overflowed its stack \(detected after the fact" -- "$b" run -p "$p" --seed 1 --stack-size 16k \
    --no-fork-server "$work/deep_recursion" 17 8
fi
unset BSPCHECK_MAX_MAP_COUNT
no_leftovers "stack overflow"

# More processes than memory holds: one clear line with the number that fits, and no trace named
# or left behind for a run that recorded nothing.
out="$("$b" run -p 100000000 --seed 1 --trace-dir "$work" "$work/deep_recursion" 1 2>&1 </dev/null)"
grep -qE "p = 100000000 processes need at least .* at most about [0-9]+ processes fit" <<<"$out" ||
  { echo "FAIL: too many processes: no refusal with the number that fits"; echo "$out" | head -5; fail=1; }
if grep -q "trace:" <<<"$out" || ls "$work"/*.trace >/dev/null 2>&1; then
  echo "FAIL: too many processes: a trace was named or left"; echo "$out" | tail -3; fail=1
fi
# A signal from outside the program (not one it sent itself: that is a crash finding, see
# finding_locations_test.sh) ends the run as it would end the program; the driver names it.
# The program tells its pid through /dev/shm: a file it writes in the working or temporary
# directory is its run's own (docs/semantics.md, "What a run sees of the machine").
pid_file="$(mktemp /dev/shm/bsp-check-pid.XXXXXX)"
rm -f "$pid_file"
# -j 1: the run alone, as its determinism check's twin beside it would write the pid file too.
timeout 120 "$b" run -p 2 --seed 1 -j 1 "$work/waits_for_a_signal" "$pid_file" >"$work/signalled.out" 2>&1 </dev/null &
driver=$!
for _ in $(seq 100); do [ -s "$pid_file" ] && break; sleep 0.1; done
if [ -s "$pid_file" ]; then
  kill -USR1 "$(cat "$pid_file")"
  wait "$driver"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: signal from outside: driver exited $status"; fail=1; }
  grep -q "killed by SIGUSR1 (User defined signal 1) before it wrote a bsp-check report: a signal from outside" "$work/signalled.out" ||
    { echo "FAIL: signal from outside: not named"; cat "$work/signalled.out"; fail=1; }
  ! grep -q "error\[crash\]" "$work/signalled.out" || { echo "FAIL: signal from outside: taken for a crash"; fail=1; }
else
  echo "FAIL: signal from outside: the program never wrote its pid"; kill "$driver"; fail=1
fi
rm -f "$pid_file"
# A heap the C library finds corrupt inside the runtime's own allocation leaves no report, only
# glibc's line on file descriptor 2: the driver names the corruption and the way to find it, not
# "it never called bsp_begin".
for server in "" --no-fork-server; do
  # shellcheck disable=SC2086
  out="$("$b" run -p 2 --seeds 2 $server "$work/heap_abort" 2>&1 </dev/null)"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: heap abort ($server): driver exited $status"; fail=1; }
  grep -q 'the C library found its heap corrupt ("malloc(): invalid size (unsorted)").*-fsanitize=address' <<<"$out" ||
    { echo "FAIL: heap abort ($server): not named"; echo "$out" | tail -5; fail=1; }
done
# A program built with AddressSanitizer against a plain runtime (as the heap-corruption hint above
# suggests): the runtime's own allocations and frees reach the sanitizer's allocator, as the
# program's do (the runtime's allocator entry points stay preemptible), and a cBSP destination in
# the receiver's heap is known through the sanitizer's allocation hooks.
if [ "$sanitized" = 0 ]; then
  examples="$here/../../examples"
  if "$BSPCC" -fsanitize=address -fno-omit-frame-pointer "$examples/cbsp/heap_rows.c" -o "$work/heap_rows_asan" 2>"$work/cc.err" &&
     "$BSPCC" -fsanitize=address -fno-omit-frame-pointer "$here/programs/cbsp_overrun_cxx.cpp" -o "$work/overrun_asan" 2>>"$work/cc.err"; then
    # With the fork server too: LeakSanitizer at a worker's exit finds every block the runtime
    # keeps (the copies of its driver variables once reported as leaked: the array that held
    # them was write-only, and the compiler dropped it).
    for server in "" --no-fork-server; do
      # shellcheck disable=SC2086
      expect 0 "runs clean" -- "$b" run -p 1-4 --seeds 5 $server "$work/heap_rows_asan"
    done
    expect 1 "error\[cbsp-dest-overrun\]: .*\`halo::from_left\` \(12 bytes\)" -- "$b" run -p 2 --seed 1 --no-keep-trace "$work/overrun_asan"
  elif grep -q "cannot find.*\(libasan\|-lasan\)" "$work/cc.err"; then
    # Only the linker missing the runtime itself (any other error mentioning asan is a failure).
    # Never in CI: scripts/test.sh's sanitizer build needs the same runtime.
    echo "note: no AddressSanitizer runtime to build with: the sanitized program was not tried"
  else
    echo "FAIL: bspcc -fsanitize=address"; cat "$work/cc.err"; fail=1
  fi
fi
# bsp_abort before bsp_begin (a usage check) halts the program with an abort finding in the report.
out="$("$b" run -p 2 --seed 1 --json "$work/abort.json" "$work/abort_before_begin" 2>&1 </dev/null)"; status=$?
[ "$status" = 1 ] || { echo "FAIL: abort before bsp_begin: driver exited $status"; fail=1; }
grep -q "error\[abort\]: process 0 called bsp_abort before bsp_begin: usage: .*abort_before_begin N$" <<<"$out" ||
  { echo "FAIL: abort before bsp_begin: not an abort finding"; echo "$out" | head -5; fail=1; }
! grep -q "without a bsp-check report\|api-misuse" <<<"$out" || { echo "FAIL: abort before bsp_begin: misexplained"; echo "$out" | head -5; fail=1; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; sys.exit(0 if [f["rule"] for f in r["findings"]] == ["abort"] else 1)' "$work/abort.json" ||
  { echo "FAIL: abort before bsp_begin: the report lacks the abort finding"; fail=1; }
exit "$fail"
