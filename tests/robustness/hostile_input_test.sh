#!/usr/bin/env bash
# Input files that are not what they should be: replay, shrink and show of a folder, /dev/zero,
# garbage, a truncated trace, a FIFO that never ends. Each is refused fast (a hang guard of 60 s
# only: the check is the exit status and message) with exit status 2 and bounded memory.
# Usage: hostile_input_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile first_line
b="$BSPCHECK"

head -c 100000 /dev/urandom >"$work/garbage.trace"
printf 'BSPTRACE' >"$work/signature-only.trace"
"$b" run -p 2 --seed 1 --trace "$work/good.trace" "$work/first_line" >/dev/null 2>&1 </dev/null ||
  { echo "FAIL: could not record a trace"; fail=1; }
head -c 20 "$work/good.trace" >"$work/truncated.trace"
for cmd in replay shrink show; do
  expect 2 "^bsp-check: error: $work: is a directory, not a trace"                 -- "$b" $cmd "$work"
  expect 2 "^bsp-check: error: /dev/zero: not a bsp-check trace"                  -- "$b" $cmd /dev/zero
  expect 2 "^bsp-check: error: $work/garbage.trace: not a bsp-check trace"        -- "$b" $cmd "$work/garbage.trace"
  expect 2 "^bsp-check: error: $work/signature-only.trace: truncated"             -- "$b" $cmd "$work/signature-only.trace"
  expect 2 "^bsp-check: error: $work/truncated.trace: "                           -- "$b" $cmd "$work/truncated.trace"
  expect 2 "^bsp-check: error: $work/none.trace: cannot read the trace"           -- "$b" $cmd "$work/none.trace"
done
# Bounded memory: an endless stream after a valid signature is cut off, not read to the end
# (ulimit -v makes an unbounded read fail the test with a bad_alloc instead of a clean message).
mkfifo "$work/endless.trace"
( printf 'BSPTRACE'; exec cat /dev/zero ) >"$work/endless.trace" 2>/dev/null &
writer=$!
limit="ulimit -v 2000000"
case "$CFLAGS" in *address*) limit=":" ;; esac  # ASan reserves terabytes of address space
out="$( ($limit; timeout 120 "$b" show "$work/endless.trace") 2>&1)"; status=$?
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
[ "$status" = 2 ] && grep -qE "^bsp-check: error: $work/endless.trace: " <<<"$out" ||
  { echo "FAIL: show of an endless FIFO: status $status: $out" | head -3; fail=1; }

no_leftovers "hostile input"
finish "robustness hostile input"
