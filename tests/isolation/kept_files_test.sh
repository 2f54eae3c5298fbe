#!/usr/bin/env bash
# The files of the run the user asked for are left where the user looks (issue 42, item 1): a
# single run's and a replay's result file is copied back into the working directory, and what
# they removed is removed; a program run directly writes it itself; a file the user changed
# while the run went on is left as the user left it, and named. And kept on request
# (--keep-files DIR: every seed's files in DIR/p<P>-s<SEED>/, while the working directory is left
# alone), and the first failing run's files beside its trace. And compared (item 2): across seeds
# (schedule-divergence) and by the determinism check (uncontrolled-nondeterminism).
# Usage: kept_files_test.sh BSP-CHECK BSPCC [CFLAGS]
set -uo pipefail
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
shm="bsp-check-kept-$$"
trap 'rm -rf "$work" /dev/shm/"$shm".*' EXIT
mkdir -p "$work/cwd" "$work/tmp"
export TMPDIR="$work/tmp"
cd "$work/cwd" || exit 1
fail=0
for prog in result_file message_order_file late_writer clock_file; do
  # shellcheck disable=SC2086
  "$BSPCC" $CFLAGS "$here/programs/$prog.c" -o "$work/$prog" || { echo "FAIL: cannot compile $prog.c"; exit 1; }
done
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && echo "$2" | tail -5; fail=1; }
# The user's files, made a moment before the run: a file changed in the clock tick a run begins
# in counts as changed while it ran (the safe side), and would not be written back.
fresh() {
  rm -rf "${work:?}/cwd/"* "${work:?}/tmp/"*
  echo "old" >stale.txt
  echo "the user's words" >user_file.txt
  sleep 0.05
}
# written_back WHAT: the run's files are in the working directory, stale.txt is gone, the user's
# own file is as it was, and no temporary folder is left.
written_back() {
  [ "$(cat result.txt 2>/dev/null)" = "result of 4 processes" ] || bad "$1: result.txt not left: $(ls)"
  [ "$(cat out/nested.txt 2>/dev/null)" = "nested" ] || bad "$1: out/nested.txt not left"
  [ ! -e stale.txt ] || bad "$1: stale.txt, which the run removed, is still there"
  [ "$(cat user_file.txt)" = "the user's words" ] || bad "$1: the user's file changed"
  [ -z "$(ls -A "$work/tmp")" ] || bad "$1: left in TMPDIR: $(ls -A "$work/tmp")"
}

fresh
out="$("$BSPCHECK" run -p 4 --seed 7 "$work/result_file" 2>&1)" || bad "single run: status $?" "$out"
written_back "a single run"

fresh
out="$("$BSPCHECK" run -p 4 --seed 7 --trace "$work/run.trace" "$work/result_file" 2>&1)" || bad "recording" "$out"
fresh
out="$("$BSPCHECK" replay "$work/run.trace" 2>&1)" || bad "replay: status $?" "$out"
written_back "replay"

fresh
BSPCHECK_OPTIONS=seed=7:procs=4 "$work/result_file" >/dev/null 2>&1 || bad "run directly: status $?"
written_back "a program run directly"

# The user changes result.txt while the run waits: the user's version stays, and is named.
fresh
echo "the user's result" >result.txt
"$BSPCHECK" run -p 4 --seed 7 "$work/result_file" wait "$shm" >"$work/out" 2>&1 &
driver=$!
for _ in $(seq 1000); do [ -e /dev/shm/"$shm".started ] && break; sleep 0.01; done
sleep 0.05  # past the file systems' coarse clock tick
echo "the user's new result" >result.txt
touch /dev/shm/"$shm".go
wait "$driver" || bad "conflict: status $?" "$(cat "$work/out")"
[ "$(cat result.txt)" = "the user's new result" ] || bad "the user's change was overwritten: $(cat result.txt)"
grep -q "1 file changed since the run began, left as it is: $work/cwd/result.txt; the run's files are in" "$work/out" ||
  bad "the conflict is not named" "$(cat "$work/out")"
kept="$(sed -n "s/.*the run's files are in \(.*\)\/$/\1/p" "$work/out")"
[ "$(cat "$kept/cwd/result.txt" 2>/dev/null)" = "result of 4 processes" ] || bad "the run's version is not where named: $kept"
[ "$(cat out/nested.txt 2>/dev/null)" = "nested" ] || bad "conflict: the run's other files were not left"

# --keep-files DIR over many seeds: each seed's files, and the working directory left alone.
fresh
out="$("$BSPCHECK" run -p 4 --seeds 3 -j 2 --keep-files "$work/kept" "$work/result_file" 2>&1)" ||
  bad "--keep-files: status $?" "$out"
for s in 1 2 3; do
  d="$work/kept/p4-s$s"
  [ "$(cat "$d/cwd/result.txt" 2>/dev/null)" = "result of 4 processes" ] || bad "--keep-files: no $d/cwd/result.txt"
  [ "$(cat "$d/cwd/out/nested.txt" 2>/dev/null)" = "nested" ] || bad "--keep-files: no $d/cwd/out/nested.txt"
  [ "$(cat "$d/removed.txt" 2>/dev/null)" = "cwd/stale.txt" ] || bad "--keep-files: $d/removed.txt does not name stale.txt"
  grep -q "^cwd	$work/cwd\$" "$d/roots.txt" || bad "--keep-files: $d/roots.txt does not name the working directory"
done
[ ! -e result.txt ] && [ -e stale.txt ] || bad "a session of many runs changed the working directory: $(ls)"

# The first failing run's files, beside its trace, named by the summary.
fresh
out="$("$BSPCHECK" run -p 4 --seeds 3 "$work/result_file" fail 2>&1)"; status=$?
[ "$status" = 1 ] || bad "failing: status $status" "$out"
grep -q "^  files: ./result_file-files/p4-s1/ (what the failing run wrote" <<<"$out" || bad "failing: no files: line" "$out"
[ "$(cat result_file-files/p4-s1/cwd/result.txt 2>/dev/null)" = "result of 4 processes" ] ||
  bad "failing: the run's result.txt is not kept"
[ -e stale.txt ] || bad "failing: a session of many runs removed stale.txt"

# Files are output (item 2): the same files under every seed pass, side by side, and the session
# leaves nothing in TMPDIR; a file whose contents follow the message order is schedule-divergence
# naming the file and its first differing line; the clock written into a file is the determinism
# check's uncontrolled-nondeterminism, naming the file.
fresh
out="$("$BSPCHECK" run -p 4 --seeds 20 -j 2 "$work/result_file" 2>&1)" || bad "same files under every seed: status $?" "$out"
[ -z "$(ls -A "$work/tmp")" ] || bad "many runs: left in TMPDIR: $(ls -A "$work/tmp")"
fresh
out="$("$BSPCHECK" run -p 4 --seeds 30 -j 2 "$work/message_order_file" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "error\[schedule-divergence\].*the runs write different files under seeds 1 and [0-9]* (p = 4)\(, from superstep 1\)\?: cwd/order.txt, line [2-5]: seed 1 wrote \"[0-3]\", seed [0-9]* wrote \"[0-3]\"" <<<"$out" ||
  bad "message order in a file: no schedule-divergence naming order.txt and its line (status $status)" "$out"
grep -q "^  files: ./message_order_file-files/p4-s[0-9]*/" <<<"$out" || bad "the diverging run's files are not named" "$out"
# Located (both seeds run again watching the first differing byte): process 0 wrote it when it
# closed the file, after its last bsp_move, in superstep 1.
grep -q "(p = 4), from superstep 1: cwd/order.txt" <<<"$out" &&
  grep -q "^  at .*message_order_file.c:18 (bsp_move, process 0)" <<<"$out" ||
  bad "message order in a file: the divergence is not located at process 0's last bsp_move" "$out"
# Written two supersteps later by another process, with write(2): located at that process, that
# superstep and its bsp_sync before the write, under both seeds (one location).
fresh
out="$("$BSPCHECK" run -p 3 --seeds 30 -j 2 "$work/late_writer" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "error\[schedule-divergence\].*(p = 3), from superstep 2: cwd/first.txt, line 1: seed 1 wrote \"first sender: [0-2]\", seed [0-9]* wrote \"first sender: [0-2]\"" <<<"$out" &&
  [ "$(grep -c "^  at .*late_writer.c:" <<<"$out")" = 1 ] &&
  grep -q "^  at .*late_writer.c:22 (bsp_sync, process 2)" <<<"$out" ||
  bad "a file written by process 2 in superstep 2: the divergence is not located there (status $status)" "$out"
[ ! -e first.txt ] || bad "a session of many runs left first.txt"
# Its kept trace holds the reference run's byte (expect_file): the replay leaves the file
# otherwise and fails the same way, located at the same write.
trace="$(sed -n 's/^  trace: //p' <<<"$out")"
out="$("$BSPCHECK" replay "$trace" 2>&1)"; status=$?
[ "$status" = 1 ] && grep -q "error\[schedule-divergence\].*the run leaves cwd/first.txt otherwise than the reference run of its session: byte 14 is '[0-2]' (0x3[0-2]), the reference run's '[0-2]'" <<<"$out" &&
  grep -q "^  at .*late_writer.c:22 (bsp_sync, process 2)" <<<"$out" ||
  bad "the kept trace of a file divergence does not replay it (status $status, trace $trace)" "$out"
[ ! -e order.txt ] || bad "a session of many runs left order.txt"
# A shard compares its runs' files with the whole session's reference run, as it does their output
# (--shard): of a pair of seeds S, S+1 whose files differ, the shard of S+1 and S+3 finds the pair
# (without the session's reference it would compare S+3 with S+1).
fresh
pair=""
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
  if ! "$BSPCHECK" run -p 3 --seed "$s" --seeds 2 "$work/late_writer" >/dev/null 2>&1; then pair=$s; break; fi
done
if [ -z "$pair" ]; then
  bad "late_writer: no two adjacent seeds of 1 to 13 write different files"
else
  out="$("$BSPCHECK" run -p 3 --seed "$pair" --seeds 4 --shard 1/2 "$work/late_writer" 2>&1)"; status=$?
  [ "$status" = 1 ] && grep -q "error\[schedule-divergence\].*under seeds $pair and $((pair + 1)) (p = 3)" <<<"$out" ||
    bad "shard 1/2 of seeds $pair to $((pair + 3)): the files are not compared with seed $pair's (status $status)" "$out"
  # A shard of one run too: it is compared, not shown live as a single run of its own is.
  out="$("$BSPCHECK" run -p 3 --seed "$pair" --seeds 2 --shard 1/2 "$work/late_writer" 2>&1)"; status=$?
  [ "$status" = 1 ] && grep -q "error\[schedule-divergence\].*under seeds $pair and $((pair + 1)) (p = 3)" <<<"$out" ||
    bad "shard 1/2 of seeds $pair and $((pair + 1)), one run: its files are not compared with seed $pair's (status $status)" "$out"
  [ ! -e first.txt ] || bad "a shard of one run copied its files back into the working directory"
fi
fresh
out="$("$BSPCHECK" run -p 2 --seed 5 "$work/clock_file" 2>&1)"
grep -q "warning\[uncontrolled-nondeterminism\].*two runs of the same seed write different files: cwd/stamp.txt, line 1: one run wrote \"written at" <<<"$out" ||
  bad "the clock in a file: no uncontrolled-nondeterminism naming stamp.txt" "$out"
grep -q "^written at" stamp.txt || bad "the single run's stamp.txt is not left"

[ "$fail" = 0 ] && echo "kept files: ok"
exit "$fail"
