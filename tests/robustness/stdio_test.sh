#!/usr/bin/env bash
# What a process does to its own stdout works as in a separate process (engine/core/stdio_interposition.cpp):
# freopen to a file of its own, fclose at its end, setvbuf with a buffer in its globals, fileno,
# and std::ios::sync_with_stdio(false) inside the SPMD part. No crash, no lost or garbled line.
# Usage: stdio_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile stdio_own
# shellcheck disable=SC2086
"$(dirname "$BSPCC")/bspcxx" $CFLAGS "$here/programs/unsynced_cout.cpp" -o "$work/unsynced_cout" 2>"$work/cc.err" ||
  { echo "FAIL: bspcxx could not compile unsynced_cout.cpp"; cat "$work/cc.err"; fail=1; }
b="$BSPCHECK"

# The logs go to /dev/shm, which the runs share with this script: a file a run writes in the
# working or temporary directory is its own (docs/semantics.md, "What a run sees of the machine").
logs="$(mktemp -d /dev/shm/bsp-check-stdio.XXXXXX)"
for p in 1 3; do
  # A log per process, each with that process's two lines only.
  rm -f "$logs"/log_*.txt
  expect 0 "clean" -- "$b" run -p "$p" --seeds 3 "$work/stdio_own" freopen "$logs"
  for ((s = 0; s < p; s++)); do
    [ "$(cat "$logs/log_$s.txt" 2>/dev/null)" = "$(printf 'process %d logs here\nprocess %d again' "$s" "$s")" ] ||
      { echo "FAIL: freopen p=$p: log_$s.txt holds:"; cat "$logs/log_$s.txt"; fail=1; }
  done
  out="$("$b" run -v -p "$p" --seed 1 "$work/stdio_own" freopen "$logs" 2>&1 </dev/null)"
  ! grep -q "logs here" <<<"$out" || { echo "FAIL: freopen p=$p: a line reached the terminal"; fail=1; }

  for what in fclose setvbuf fileno; do
    "$b" run -v -p "$p" --seeds 3 "$work/stdio_own" "$what" >"$work/out.bin" 2>&1 </dev/null; status=$?
    out="$(tr -d '\000' <"$work/out.bin")"
    [ "$status" = 0 ] || { echo "FAIL: $what p=$p: status $status"; echo "$out" | tail -5; fail=1; }
    ! grep -qaP '\x00' "$work/out.bin" || { echo "FAIL: $what p=$p: NUL bytes in the output"; fail=1; }
    for ((s = 0; s < p; s++)); do
      case "$what" in
        fclose) want="process $s done" n=3 ;;
        setvbuf) want="p$s world" n=3 ;;
        fileno) want="process $s writes to fd 1" n=3 ;;
      esac
      [ "$(grep -c "^$want\$" <<<"$out")" = "$n" ] || { echo "FAIL: $what p=$p: '$want' not once per run"; echo "$out" | head -20; fail=1; }
    done
    [ "$what" != setvbuf ] || [ "$(grep -c "^p[0-9] hello\$" <<<"$out")" = $((3 * p)) ] ||
      { echo "FAIL: setvbuf p=$p: hello lines lost"; echo "$out" | head -20; fail=1; }
  done

  out="$("$b" run -v -p "$p" --seeds 3 "$work/unsynced_cout" 2>&1 </dev/null)"; status=$?
  [ "$status" = 0 ] || { echo "FAIL: unsynced cout p=$p: status $status"; echo "$out" | tail -5; fail=1; }
  for ((s = 0; s < p; s++)); do
    for word in hello bye; do
      [ "$(grep -c "^$word from process $s\$" <<<"$out")" = 3 ] ||
        { echo "FAIL: unsynced cout p=$p: '$word from process $s' lost"; echo "$out" | head -20; fail=1; }
    done
  done
  # Unsynchronised before bsp_begin: what process 0 prints after bsp_end comes last.
  out="$(BSPCHECK_OPTIONS=procs=$p "$work/unsynced_cout" before 2>&1 </dev/null | cat)"
  [ "$(tail -1 <<<"$out")" = "after bsp_end" ] && [ "$(wc -l <<<"$out")" = $((2 * p + 1)) ] ||
    { echo "FAIL: cout unsynchronised before bsp_begin, p=$p: the line after bsp_end is not last"; echo "$out"; fail=1; }
done
rm -rf "$logs"
no_leftovers "stdio"
exit "$fail"
