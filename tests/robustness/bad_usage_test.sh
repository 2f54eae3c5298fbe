#!/usr/bin/env bash
# Bad usage of every kind, for every command and for BSPCHECK_OPTIONS: one line naming the option
# or key, the bad value and what is allowed; exit status 2; no run starts, nothing is left behind.
# Usage: bad_usage_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile first_line
compile long_trace
prog="$work/first_line"
b="$BSPCHECK"

# run (and the bare form): numbers out of range, negative, malformed, absurd.
for form in "run" ""; do
  # shellcheck disable=SC2086
  expect 2 "^bsp-check: error: -p 99999999999999999999: .*too many \(at most 100000000\)" -- $b $form -p 99999999999999999999 "$prog"
  # shellcheck disable=SC2086
  expect 2 "^bsp-check: error: --seeds: expected a whole number from 1 to [0-9]+, got '-1'" -- $b $form --seeds -1 "$prog"
done
expect 2 "^bsp-check: error: --seeds: expected a whole number from 1 to [0-9]+, got '0'" -- "$b" run --seeds 0 "$prog"
expect 2 "^bsp-check: error: -p 1-0: 0 processes: p must be at least 1$"            -- "$b" run -p 1-0 "$prog"
expect 2 "^bsp-check: error: -p 4-2: empty range 4-2 \(write the smaller count first\)$" -- "$b" run -p 4-2 "$prog"
expect 2 "^bsp-check: error: -p 1-20000: range 1-20000 has 20000 process counts, more than 10000 " -- "$b" run -p 1-20000 "$prog"
expect 2 "^bsp-check: error: --seeds: .*got '99999999999999999999'"  -- "$b" run --seeds 99999999999999999999 "$prog"
expect 2 "^bsp-check: error: --seed: expected a whole number from 0 to [0-9]+, or 0x hex, got '-1'" -- "$b" run --seed -1 "$prog"
expect 2 "^bsp-check: error: --seed: .*got '1x'"                        -- "$b" run --seed 1x "$prog"
expect 2 "runs past the largest seed"                                   -- "$b" run --seed 9223372036854775807 --seeds 2 "$prog"
expect 2 "^bsp-check: error: --timeout: expected 0 \(none\) or seconds from 0.001 to 10000000, got '-1'" -- "$b" run --timeout -1 "$prog"
expect 2 "^bsp-check: error: --timeout: .*got 'nan'"                    -- "$b" run --timeout nan "$prog"
expect 2 "^bsp-check: error: --timeout: .*got '1e400'"                  -- "$b" run --timeout 1e400 "$prog"
expect 2 "^bsp-check: error: --stack-size: expected a size from 16k to 1024m.*got 'abc'" -- "$b" run --stack-size abc "$prog"
expect 2 "^bsp-check: error: --stack-size: .*got '-1'"                  -- "$b" run --stack-size -1 "$prog"
expect 2 "^bsp-check: error: --stack-size: .*got '99999999999g'"        -- "$b" run --stack-size 99999999999g "$prog"
expect 2 "^bsp-check: error: --strategy: "                              -- "$b" run --strategy bogus "$prog"
expect 2 "^bsp-check: error: --disable: unknown rule 'bogus'"           -- "$b" run --disable bogus "$prog"
# A number in --timeout's message is short: never DBL_MAX's 309 digits.
out="$("$b" run --timeout -1 "$prog" 2>&1)"
[ "${#out}" -lt 200 ] || { echo "FAIL: --timeout message is ${#out} characters: $out"; fail=1; }

# An unknown option is not the program; "--" ends the options.
expect 2 "^bsp-check: error: unknown option '--bogus'"                  -- "$b" run --bogus "$prog"
expect 2 "^bsp-check: error: unknown option '--bogus'"                  -- "$b" --bogus "$prog"
expect 2 "^bsp-check: error: unknown option '-z'"                       -- "$b" run -z "$prog"
expect 0 "runs clean"                                                   -- "$b" run -p 1 --seeds 2 -- "$prog"
expect 0 "runs clean"                                                   -- "$b" -p 1 --seeds 2 -- "$prog"
expect 2 "^bsp-check: error: no PROGRAM given"                          -- "$b" run --

# Files named by options: checked before the first run, exit 2.
expect 2 "^bsp-check: error: --trace $work/no/such/x.trace: cannot write the trace" -- "$b" run -p 1 --seed 1 --trace "$work/no/such/x.trace" "$prog"
expect 2 "^bsp-check: error: --trace-dir $work/no/such: not a directory" -- "$b" run --trace-dir "$work/no/such" "$prog"
# A trace that stops being written half-way (a full disk; here a file size limit, its signal
# ignored): the run says so and removes it, and the session ends with status 2.
out="$( (trap '' XFSZ; ulimit -f 256; "$b" run -p 2 --seed 1 --trace "$work/cut.trace" "$work/long_trace") 2>&1)"; status=$?
[ "$status" = 2 ] || { echo "FAIL: a trace cut short by a write error: exit $status, expected 2"; echo "$out" | tail -3; fail=1; }
grep -q "^bsp-check: error: $work/cut.trace: cannot write the trace: File too large; the trace is removed" <<<"$out" &&
  grep -q "^bsp-check: error: --trace $work/cut.trace: the trace could not be written" <<<"$out" ||
  { echo "FAIL: a trace cut short by a write error is not reported:"; echo "$out" | tail -3; fail=1; }
[ -e "$work/cut.trace" ] && { echo "FAIL: a trace cut short by a write error was left behind"; fail=1; }
expect 2 "^bsp-check: error: cannot write $work/no/such/r.json"         -- "$b" run --json "$work/no/such/r.json" "$prog"
expect 2 "^bsp-check: error: cannot write $work: it is a directory"     -- "$b" run --sarif "$work" "$prog"
printf 'put-collision x.c:99999999999999999999\n' >"$work/huge.supp"
expect 2 "huge.supp:1: line number 99999999999999999999 is out of range" -- "$b" run --suppressions "$work/huge.supp" "$prog"
printf 'put-collision a.c:-1\n' >"$work/negative.supp"
expect 2 "^bsp-check: error: --suppressions $work/negative.supp:1: line number -1 is out of range \(from 1 to 999999999\)$" -- "$b" run --suppressions "$work/negative.supp" "$prog"
printf 'put-collision a.c:0\n' >"$work/zero.supp"
expect 2 "zero.supp:1: line number 0 is out of range"                   -- "$b" run --suppressions "$work/zero.supp" "$prog"
printf 'put-collision a.c:\n' >"$work/colon.supp"
expect 2 "colon.supp:1: expected a line number after 'a.c:'"            -- "$b" run --suppressions "$work/colon.supp" "$prog"

for opt in --json --sarif --junit; do
  expect 2 "^bsp-check: error: $opt: expected a file name, got ''"       -- "$b" run "$opt" '' "$prog"
  expect 2 "^bsp-check: error: $opt: expected a file name, got '-'"      -- "$b" run "$opt" - "$prog"
  expect 2 "^bsp-check: error: $opt: expected a file name, got ''"       -- "$b" explore "$opt" '' "$prog"
  expect 2 "^bsp-check: error: $opt: expected a file name, got '-'"      -- "$b" merge "$opt" - "$work/none.json"
done
[ -e - ] && { echo "FAIL: a file named '-' was created"; fail=1; }
expect 2 "^bsp-check: error: --disable: expected rule ids, comma-separated, got ''" -- "$b" run --disable '' "$prog"
expect 2 "^bsp-check: error: --disable: expected rule ids, comma-separated, got ','" -- "$b" run --disable , -p 1 "$prog"
expect 2 "^bsp-check: error: --disable: .*got 'put-collision,,reg-leak'" -- "$b" run --disable put-collision,,reg-leak "$prog"
expect 2 "^bsp-check: error: --timeout: expected 0 \(none\) or seconds from 0.001 to 10000000, got '1e-300'" -- "$b" run --timeout 1e-300 "$prog"
expect 2 "^bsp-check: error: --seed: expected a whole number from 0 to 9223372036854775807, or 0x hex, got '9223372036854775808'" -- "$b" run --seed 9223372036854775808 "$prog"
expect 2 "^bsp-check: error: the program name is empty"                 -- "$b" ''
expect 2 "^bsp-check: error: the program name is empty"                 -- "$b" run -p 1 ''
expect 2 "^bsp-check: error: --list-rules takes no argument but --json, got 'extra'$" -- "$b" --list-rules extra
expect 2 "^bsp-check: error: --list-options takes no argument but --json, got 'extra'$" -- "$b" --list-options extra

# CLI11's leftovers in the help: "{false}" of a negated flag, a validator's name after the type.
if "$b" run --help | grep -nE '\{false\}|UINT:UINT|TEXT:SEED'; then echo "FAIL: run --help shows CLI11 leftovers"; fail=1; fi

for cmd in run replay shrink show explore merge stats; do
  [ "$("$b" $cmd --help | grep -c '^Usage')" = 1 ] || { echo "FAIL: $cmd --help has not exactly one Usage line"; fail=1; }
done
"$b" run --help | grep -q '^Usage: bsp-check \[OPTIONS\]$' && { echo "FAIL: run --help shows a Usage line without PROGRAM"; fail=1; }

# The other commands.
expect 2 "^bsp-check: error: --timeout: .*got '-1'"                    -- "$b" replay --timeout -1 x.trace
expect 2 "^bsp-check: error: The following argument was not expected: --bogus|^bsp-check: error: .*--bogus" -- "$b" replay --bogus x.trace
expect 2 "^bsp-check: error: --max-runs: expected a whole number from 1 to [0-9]+, got '-1'" -- "$b" shrink --max-runs -1 x.trace
expect 2 "^bsp-check: error: TRACE is required"                         -- "$b" shrink
# shrink's -o: checked before the first run (the trace here passes: a run would say so, exit 1).
"$b" run -p 1 --seed 1 --trace "$work/ok.trace" "$prog" >/dev/null 2>&1 </dev/null
expect 2 "^bsp-check: error: -o $work/no/such/x: cannot write the minimal trace" -- "$b" shrink -o "$work/no/such/x" "$work/ok.trace"
expect 2 "^bsp-check: error: -o $work: cannot write the minimal trace: it is a directory" -- "$b" shrink -o "$work" "$work/ok.trace"
if [ "$(id -u)" != 0 ]; then  # root writes a read-only file anyway
  touch "$work/ro.trace"; chmod 0444 "$work/ro.trace"
  expect 2 "^bsp-check: error: -o $work/ro.trace: cannot write the minimal trace" -- "$b" shrink -o "$work/ro.trace" "$work/ok.trace"
fi
[ -e "$work/no/such/x" ] && { echo "FAIL: shrink -o wrote through a missing folder"; fail=1; }
expect 2 "^bsp-check: error: --word-bytes: .*got '0'"                   -- "$b" show --word-bytes 0 x.trace
expect 2 "^bsp-check: error: --g: expected flop units from 0 to .*got '-1'" -- "$b" show --g -1 --l 1 x.trace
expect 2 "^bsp-check: error: --s: .*got 'inf'"                          -- "$b" show --s inf x.trace
expect 2 "^bsp-check: error: --machine-p: .*got '99999999999999999999'" -- "$b" show --machine x --machine-p 99999999999999999999 x.trace
expect 2 "^bsp-check: error: --bound: .*got '-1'"                       -- "$b" explore --bound -1 "$prog"
expect 2 "^bsp-check: error: --max-runs: .*got '0'"                     -- "$b" explore --max-runs 0 "$prog"
expect 2 "^bsp-check: error: -p 99999999999999999999: "                 -- "$b" explore -p 99999999999999999999 "$prog"
expect 2 "^bsp-check: error: unknown option '--bogus'"                  -- "$b" explore --bogus "$prog"
expect 2 "^bsp-check: error: --trace-dir $work/no/such: not a directory" -- "$b" explore --trace-dir "$work/no/such" "$prog"
# run and explore check --trace-dir with one helper (tools/cli/option_checks.hpp): the same lines. A
# path the system refuses to look at (too long to stat) is "not a directory" too, not a crash.
long_dir="$work/$(printf 'd%.0s' $(seq 300))"  # a name longer than NAME_MAX
for cmd in run explore; do
  expect 2 "^bsp-check: error: $work/a:b: a path with ':' cannot be passed in BSPCHECK_OPTIONS$" -- "$b" $cmd --trace-dir "$work/a:b" "$prog"
  expect 2 "^bsp-check: error: --trace-dir $work/d+: not a directory$" -- "$b" $cmd --trace-dir "$long_dir" "$prog"
done

# BSPCHECK_OPTIONS, read by the program itself.
expect 2 "BSPCHECK_OPTIONS: seed: expected a whole number .*got '-1'"   -- env BSPCHECK_OPTIONS=seed=-1 "$prog"
expect 2 "BSPCHECK_OPTIONS: seed: .*got '7x'"                           -- env BSPCHECK_OPTIONS=seed=7x "$prog"
expect 2 "BSPCHECK_OPTIONS: timeout: expected 0 \(none\) or seconds .*got '-1'"       -- env BSPCHECK_OPTIONS=timeout=-1 "$prog"
expect 2 "BSPCHECK_OPTIONS: timeout: .*got 'inf'"                       -- env BSPCHECK_OPTIONS=timeout=inf "$prog"
expect 2 "BSPCHECK_OPTIONS: procs: .*got '99999999999999999999'"       -- env BSPCHECK_OPTIONS=procs=99999999999999999999 "$prog"
expect 2 "BSPCHECK_OPTIONS: procs: .*got '2x'"                          -- env BSPCHECK_OPTIONS=procs=2x "$prog"
expect 2 "BSPCHECK_OPTIONS: stack: .*got '-1'"                          -- env BSPCHECK_OPTIONS=stack=-1 "$prog"
expect 2 "BSPCHECK_OPTIONS: stack: .*got '99999999999g'"                -- env BSPCHECK_OPTIONS=stack=99999999999g "$prog"
expect 2 "BSPCHECK_OPTIONS: exitcode: .*got '256'"                      -- env BSPCHECK_OPTIONS=exitcode=256 "$prog"
expect 2 "BSPCHECK_OPTIONS: unknown option 'sed'"                       -- env BSPCHECK_OPTIONS=sed=1 "$prog"
expect 2 "BSPCHECK_OPTIONS: report: cannot write '$work/no/such/r.json'" -- env BSPCHECK_OPTIONS=report=$work/no/such/r.json "$prog"
expect 2 "^bsp-check: error: .*huge.supp:1: line number 99999999999999999999 is out of range" -- env BSPCHECK_OPTIONS=suppressions=$work/huge.supp "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: guide_log: cannot write '$work/no/x'" -- env BSPCHECK_OPTIONS=guide_log=$work/no/x "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: werror: expected 0 or 1 \(or false/true, no/yes\), got 'on'$" -- env BSPCHECK_OPTIONS=werror=on "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: procs: given twice; give each key once$" -- env BSPCHECK_OPTIONS=procs=2:procs=3 "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: disable: expected rule ids, comma-separated, got ''$" -- env BSPCHECK_OPTIONS=disable= "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: timeout: expected 0 \(none\) or seconds from 0.001 to 10000000, got '1e-300'$" -- env BSPCHECK_OPTIONS=timeout=1e-300 "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: seed: expected a whole number from 0 to 9223372036854775807, or 0x hex, got '18446744073709551615'$" -- env BSPCHECK_OPTIONS=seed=18446744073709551615 "$prog"
expect 2 "^bsp-check: error: BSPCHECK_OPTIONS: seed: .*got '0x8000000000000000'$" -- env BSPCHECK_OPTIONS=seed=0x8000000000000000 "$prog"
[ -e "$work/no" ] && { echo "FAIL: a check created $work/no"; fail=1; }

no_leftovers "bad usage"
finish "robustness bad usage"
