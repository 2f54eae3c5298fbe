#!/usr/bin/env bash
# The program's environment is the one it would have outside bsp-check, and the driver survives
# what a program does to it: standard input streamed lazily to every run (an endless pipe works),
# no report file or fork-server channel inherited, temporary files under $TMPDIR and removed, and a
# program that ends before bsp_begin under the fork server never kills the driver (SIGPIPE).
# Usage: environment_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile first_line
compile open_fds
compile early_exit
compile print_environment
compile uninitialised_stack
b="$BSPCHECK"

# An endless pipe: the first run starts, every run sees the input from its start.
out="$(yes | timeout 60 "$b" run -v -p 1-2 --seeds 3 "$work/first_line" 2>&1; exit "${PIPESTATUS[1]}")"; status=$?
[ "$status" = 0 ] || { echo "FAIL: yes | bsp-check run: status $status"; echo "$out" | tail -3; fail=1; }
[ "$(grep -c '^got y$' <<<"$out")" = 6 ] || { echo "FAIL: yes | bsp-check run: not every run read 'y'"; echo "$out" | head; fail=1; }
# A finite pipe and a file: every run gets the same first line.
for how in pipe file; do
  printf 'hello\nworld\n' >"$work/in.txt"
  if [ "$how" = pipe ]; then
    out="$(cat "$work/in.txt" | "$b" run -v -p 2 --seeds 4 "$work/first_line" 2>&1)"
  else
    out="$("$b" run -v -p 2 --seeds 4 "$work/first_line" <"$work/in.txt" 2>&1)"
  fi
  [ "$(grep -c '^got hello$' <<<"$out")" = 4 ] || { echo "FAIL: stdin from a $how: not every run got 'hello'"; echo "$out" | head; fail=1; }
done
no_leftovers "stdin"

# No inherited report files nor channel: the program lists its descriptors above 2.
for server in "" --no-fork-server; do
  # shellcheck disable=SC2086
  out="$("$b" run -v -p 2 --seeds 2 $server --json "$work/r.json" --sarif "$work/r.sarif" --junit "$work/r.xml" \
         "$work/open_fds" 2>&1 </dev/null)"
  # Descriptors this script itself was given (by ctest, a CI runner) pass through to any child.
  ours="$(ls /proc/$$/fd | sed 's/^/^open fd /; s/$/ /' )"
  leaked="$(grep '^open fd' <<<"$out" | grep -vf <(echo "$ours") | grep -E "$work|pipe:|memfd:bsp-check" || true)"
  [ -z "$leaked" ] || { echo "FAIL: the program inherited driver files ($server):"; echo "$leaked"; fail=1; }
  grep -q "runs clean" <<<"$out" || { echo "FAIL: open_fds did not run clean ($server)"; echo "$out" | tail -3; fail=1; }
done
# The runtime's own files (a trace recorded or replayed) are not the program's: its listing of
# its descriptors does not show them (runtime/isolation/runtime_fds.hpp; runtime_fds_test.sh
# checks the rest: closing them all, fcntl probes), and its own files get the numbers they would.
for how in trace replay; do
  out="$(BSPCHECK_OPTIONS="procs=2:seed=1:$how=$work/fds.trace" "$work/open_fds" 2>&1 </dev/null)"; status=$?
  [ "$status" = 0 ] || { echo "FAIL: open_fds under $how: status $status"; echo "$out"; fail=1; }
  ! grep -q "^open fd [0-9]* -> $work/fds.trace" <<<"$out" || { echo "FAIL: the $how's trace file is seen open"; echo "$out"; fail=1; }
done
no_leftovers "descriptors"

# The environment a run gets is the driver's, with a default UBSAN_OPTIONS and ASAN_OPTIONS'
# recovery settings (runtime/memory_checks/asan_recovery.hpp) and nothing else: not
# what the driver tells the runtime (BSPCHECK_OPTIONS and the others: taken out before main,
# runtime/options/driver_environment.hpp, so a program printing its environment prints the same in every
# run of a seed and the determinism check finds nothing), not the fork server's channel, not the
# LD_BIND_NOW it is started with; a value with spaces, '=' and a newline passes unchanged. The
# driver never changes its own environment (tools/launch/child_environment.hpp): with -j its threads
# start runs at once.
value=$'a b=c\nd'
for server in "" --no-fork-server; do
  for preset in "" LD_BIND_NOW=1; do
    # shellcheck disable=SC2086
    env $preset BSPCHECK_TEST_VALUE="$value" "$b" run -v -j 2 -p 1-2 --seeds 3 $server "$work/print_environment" \
      >"$work/env.out" 2>&1 </dev/null
    grep -q "runs clean" "$work/env.out" || { echo "FAIL: print_environment ($server $preset)"; tail -3 "$work/env.out"; fail=1; continue; }
    ! grep -q "warning" "$work/env.out" || { echo "FAIL: print_environment warned ($server $preset)"; grep warning "$work/env.out" | head -3; fail=1; }
    env $preset BSPCHECK_TEST_VALUE="$value" env -0 >"$work/env.want"
    python3 -c '
import os, sys
from collections import Counter
driver = ("BSPCHECK_OPTIONS=", "BSPCHECK_REPORT=", "BSPCHECK_REPRO=", "BSPCHECK_PREFIX=")  # set by the driver per run
runtime = ("UBSAN_OPTIONS=", "ASAN_OPTIONS=")  # the defaults the driver adds
given = [e.replace("\n", "\\n") for e in open(sys.argv[3]).read().split("\0")[:-1] if not e.startswith(driver + runtime)]
lines = open(sys.argv[1]).read().splitlines()
# p = 1, 2 with 3 seeds each: every process runs main (as under an MPI-based BSPlib), process 0
# prints once per run after bsp_begin.
for when, times in (("main", 3 * 1 + 3 * 2), ("env", 6)):
    expected = Counter({e: times for e in given})
    got = Counter(l[len(when) + 1:] for l in lines if l.startswith(when + " ") and not l[len(when) + 1:].startswith(runtime))
    if got != expected:
        print(f"FAIL: the environment at {when} ({sys.argv[2]}) is not the driver'"'"'s in every run:")
        print("  missing:", sorted((expected - got).items())[:4])
        print("  extra:", sorted((got - expected).items())[:4])
        sys.exit(1)
' "$work/env.out" "$server $preset" "$work/env.want" || fail=1
  done
done
no_leftovers "environment"

# A program that ends before bsp_begin, many times with the fork server: the driver reports the
# runs and never dies of SIGPIPE (141) nor leaves empty reports. Such a program is one sequential
# process (issue 11, docs/dialects.md): with status 0 its runs are clean, with another status they
# fail for that status.
for i in 1 2 3 4 5; do
  "$b" run -q --keep-going -p 1-4 --seeds 10 --json "$work/e.json" --sarif "$work/e.sarif" --junit "$work/e.xml" \
    "$work/early_exit" 3 >"$work/out" 2>&1 </dev/null
  status=$?
  [ "$status" = 1 ] || { echo "FAIL: early exit, try $i: status $status"; tail -3 "$work/out"; fail=1; break; }
  grep -q "exited with status 3" "$work/out" || { echo "FAIL: early exit: no reason given"; tail -3 "$work/out"; fail=1; break; }
  valid_reports "$work/e.json" "$work/e.sarif" "$work/e.xml" "
assert j['total'] == 40 and j['failed'] == 40 and j['interrupted'] is False, j
assert all('exited with status 3' in r['reason'] for r in j['runs'])
"
  "$b" run -q -p 1-4 --seeds 10 "$work/early_exit" 0 >"$work/out" 2>&1 </dev/null \
    || { echo "FAIL: early exit 0, try $i: not clean"; tail -3 "$work/out"; fail=1; break; }
done
no_leftovers "early exit"

# Every process reads zeros below main's frame after bsp_begin (process 0 on the main stack, the
# others on fiber stacks), in a plain run and in the runs of a worker alike (not the dynamic
# loader's frames in one and the fork server's in the other, nor bsp_begin's return addresses),
# so that an uninitialised read fails or passes the same under a seed and under its reproduce
# command.
for server in "" --no-fork-server; do
  # shellcheck disable=SC2086
  "$b" run -v -p 1-3 --seeds 4 $server "$work/uninitialised_stack" >"$work/stack.out" 2>&1 </dev/null
  # 4 seeds at p = 1, 2, 3: 24 processes, every one of them reading zeros.
  zeros="$(grep -c '^process [0-9]*: 0 nonzero bytes below$' "$work/stack.out")"
  [ "$zeros" = 24 ] || { echo "FAIL: a process read garbage below main's frame ($server): $zeros processes of 24 read zeros"; grep '^process' "$work/stack.out" | sort | uniq -c | head -5; fail=1; }
done
BSPCHECK_OPTIONS=procs=1 "$work/uninitialised_stack" >"$work/stack.out" 2>&1 </dev/null
grep -q '^process 0: 0 nonzero bytes below$' "$work/stack.out" \
  || { echo "FAIL: process 0 read garbage below main's frame (run directly)"; cat "$work/stack.out"; fail=1; }
no_leftovers "uninitialised stack"
finish "robustness environment"
