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
# One byte changed past the header: replay checks a sealed trace by its end record's checksum
# (tools/commands/replay_command.cpp) and must refuse it before running anything.
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) * 2 // 3] ^= 0x40; open(sys.argv[2], "wb").write(b)' \
  "$work/good.trace" "$work/damaged.trace"
expect 0 "" -- "$b" replay "$work/good.trace"
for cmd in replay shrink show; do
  expect 2 "^bsp-check: error: $work: is a directory, not a trace"                 -- "$b" $cmd "$work"
  expect 2 "^bsp-check: error: /dev/zero: not a bsp-check trace"                  -- "$b" $cmd /dev/zero
  expect 2 "^bsp-check: error: $work/garbage.trace: not a bsp-check trace"        -- "$b" $cmd "$work/garbage.trace"
  expect 2 "^bsp-check: error: $work/signature-only.trace: truncated"             -- "$b" $cmd "$work/signature-only.trace"
  expect 2 "^bsp-check: error: $work/truncated.trace: "                           -- "$b" $cmd "$work/truncated.trace"
  expect 2 "^bsp-check: error: $work/damaged.trace: (corrupted|truncated)"         -- "$b" $cmd "$work/damaged.trace"
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

# Text inputs (a suppressions file, a choice script) from the driver's flags and from
# BSPCHECK_OPTIONS: a device, binary data, a directory are refused fast, with bounded memory (under
# ulimit -v an unbounded read fails with something else than the message) and no raw bytes.
bounded=(bash -c "$limit; exec \"\$@\"" _)
head -c 4096 /dev/urandom >"$work/garbage.supp"
printf 'put-collision %05000d\n' 1 >"$work/long-line.supp"
# (Random bytes may hold a newline before their first other control byte: the line is then 2 or more.)
for file in /dev/zero /dev/urandom "$work/garbage.supp"; do
  expect 2 "^bsp-check: error: --suppressions $file:[0-9]+: binary data \(byte 0x[0-9a-f]{2}\), not a suppressions file$" -- \
    "${bounded[@]}" "$b" run --suppressions "$file" "$work/first_line"
  expect 2 "^bsp-check: error: $file:[0-9]+: binary data \(byte 0x[0-9a-f]{2}\), not a suppressions file$" -- \
    "${bounded[@]}" env BSPCHECK_OPTIONS="suppressions=$file" "$work/first_line"
  expect 2 "^bsp-check: error: $file:[0-9]+: binary data \(byte 0x[0-9a-f]{2}\), not a choice script$" -- \
    "${bounded[@]}" env BSPCHECK_OPTIONS="guide=$file" "$work/first_line"
done
out="$( ("${bounded[@]}" timeout 60 "$b" run --suppressions /dev/stdin "$work/first_line" </dev/zero) 2>&1)"; status=$?
[ "$status" = 2 ] && grep -qE "^bsp-check: error: --suppressions /dev/stdin:1: binary data" <<<"$out" ||
  { echo "FAIL: --suppressions /dev/stdin fed /dev/zero: status $status: $out" | head -3; fail=1; }
expect 2 "^bsp-check: error: --suppressions $work/long-line.supp:1: a line longer than 4 KiB, not a suppressions file$" -- \
  "$b" run --suppressions "$work/long-line.supp" "$work/first_line"
expect 2 "^bsp-check: error: --suppressions $work: is a directory, not a suppressions file$" -- \
  "$b" run --suppressions "$work" "$work/first_line"

no_leftovers "hostile input"
finish "robustness hostile input"
