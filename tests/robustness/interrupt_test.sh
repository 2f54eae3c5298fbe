#!/usr/bin/env bash
# SIGINT, SIGTERM and SIGHUP during a session of many runs (with the fork server, and without):
# the driver ends with 128 + the signal, kills and reaps every run and fork server, removes its
# temporary files, and writes complete reports that say the session was interrupted and what ran.
# Then: a second signal changes nothing of that, a third kills at once, and a report is never
# left truncated. A driver killed at once (a third signal, SIGKILL) leaves no run or fork server
# running and no folder behind.
# Usage: interrupt_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
source "$(dirname "$0")/lib.sh"
compile slow
compile nosync
compile sync_forever
b="$BSPCHECK"

# wait_for_run [PROGRAM]: until a run of the program (default slow) is under way (the signal
# must land mid-run).
wait_for_run() {
  for _ in $(seq 600); do
    # The program itself (its command line starts with its path), not the driver, whose arguments
    # name it too: the driver installs its handlers only after it starts.
    pgrep -f -- "^$work/${1:-slow}" >/dev/null && return 0
    sleep 0.05
  done
  echo "FAIL: no run of the ${1:-slow} program started"; fail=1
}

# interrupt SIGNAL STATUS PROCS [run options...]
interrupt() {
  local sig="$1" want="$2" procs="$3"; shift 3
  local planned=$(( 1000 * ($(tr -cd , <<<"$procs" | wc -c) + 1) ))  # 1000 seeds per p
  rm -f "$work"/r.*
  "$b" run -p "$procs" --seeds 1000 --json "$work/r.json" --sarif "$work/r.sarif" --junit "$work/r.xml" "$@" \
    "$work/slow" >"$work/out" 2>&1 </dev/null &
  local pid=$!
  wait_for_run
  sleep 0.3
  kill -"$sig" "$pid"
  # A hang guard only: a driver that does not stop is killed after 60 s and fails the status check.
  # (trap - EXIT: the guard must not run lib.sh's clean-up of $work when it ends.)
  ( trap - EXIT; sleep 60; kill -KILL "$pid" 2>/dev/null ) &
  local guard=$!
  wait "$pid"; local status=$?
  kill -KILL "$guard" 2>/dev/null; wait "$guard" 2>/dev/null  # its sleep ends on its own
  [ "$status" = "$want" ] || { echo "FAIL: SIG$sig $*: exit status $status, expected $want"; tail -3 "$work/out"; fail=1; }
  grep -qE "^bsp-check: interrupted by SIG$sig after [0-9]+ of [0-9]+ runs" "$work/out" ||
    { echo "FAIL: SIG$sig $*: no interruption summary:"; tail -3 "$work/out"; fail=1; }
  valid_reports "$work/r.json" "$work/r.sarif" "$work/r.xml" "
assert j['interrupted'] is True and j['interrupted_by'] == 'SIG$sig', j
assert j['planned'] == $planned and j['total'] < $planned and j['failed'] == 0, j
assert all(r['passed'] for r in j['runs']), j['runs']
inv = s['runs'][0]['invocations'][0]
assert inv['executionSuccessful'] is False
assert any('interrupted by SIG$sig' in n['message']['text'] for n in inv['toolExecutionNotifications'])
props = {p.get('name'): p.get('value') for p in x.iter('property')}
assert props.get('interrupted') == 'SIG$sig', props
assert len(list(x.iter('testcase'))) == j['total']
"
  no_leftovers "SIG$sig $*"
  ls -A "$work" | grep -q '\.tmp-' && { echo "FAIL: SIG$sig: a report's temporary file is left"; fail=1; }
}

interrupt INT 130 2
interrupt TERM 143 2
interrupt HUP 129 2
interrupt INT 130 2 --no-fork-server
interrupt TERM 143 1,3 --keep-going

# Two signals in a row: the second kills the runs again and changes nothing else; the session
# still ends tidily, with its summary, its reports and no temporary folder left (it used to end
# the driver by the default action, before the fork servers' folders were removed: most times).
# Repeated: whether the handler of the first runs before the second arrives is a matter of timing.
for _ in 1 2 3; do
  rm -f "$work"/r.*
  "$b" run -p 2 --seeds 1000 --json "$work/r.json" --sarif "$work/r.sarif" --junit "$work/r.xml" "$work/slow" \
    >"$work/out" 2>&1 </dev/null &
  pid=$!
  wait_for_run
  kill -TERM "$pid"; kill -TERM "$pid" 2>/dev/null
  wait "$pid"; status=$?
  [ "$status" = 143 ] || { echo "FAIL: two SIGTERMs: status $status, expected 143"; tail -3 "$work/out"; fail=1; }
  grep -qE "^bsp-check: interrupted by SIGTERM after [0-9]+ of [0-9]+ runs" "$work/out" ||
    { echo "FAIL: two SIGTERMs: no interruption summary:"; tail -3 "$work/out"; fail=1; }
  valid_reports "$work/r.json" "$work/r.sarif" "$work/r.xml" "assert j['interrupted_by'] == 'SIGTERM', j"
  no_leftovers "two SIGTERMs"
done

# Under `timeout`, as CI runs it: timeout signals the driver and then its whole process group, so
# the driver gets the signal twice, at nearly the same moment (it used to leave the fork servers'
# folders behind when the second came after the handler of the first had run: now and then).
for sig in TERM INT TERM INT TERM INT; do
  timeout -s "$sig" 1 "$b" run -p 2 --seeds 1000 --json "$work/r.json" "$work/slow" >"$work/out" 2>&1 </dev/null
  status=$?
  [ "$status" = 124 ] || { echo "FAIL: timeout -s $sig: status $status, expected 124"; tail -3 "$work/out"; fail=1; }
  # Whether a run had started when the time was up depends on the machine: a report, if any, is whole.
  if [ -e "$work/r.json" ]; then
    python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['interrupted_by'] == 'SIG$sig'" "$work/r.json" ||
      { echo "FAIL: timeout -s $sig: the report does not say SIG$sig"; fail=1; }
  fi
  rm -f "$work/r.json"
  no_leftovers "timeout -s $sig"
done

# A third signal ends the driver at once, by the signal; its runs are killed all the same.
"$b" run -p 2 --seeds 1000 "$work/slow" >/dev/null 2>&1 </dev/null &
pid=$!
wait_for_run
kill -TERM "$pid"; kill -TERM "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null
wait "$pid"; status=$?
[ "$status" = 143 ] || { echo "FAIL: three SIGTERMs: status $status"; fail=1; }
# gone_within WHAT: the driver's runs and fork servers end within 5 s of the driver's end (the
# kernel kills them when it dies: they ask for that at their start), and nothing is left in
# $TMPDIR (a fork server keeps its files in memory).
gone_within() {
  for _ in $(seq 100); do
    pgrep -f -- "^$work/" >/dev/null || break
    sleep 0.05
  done
  no_leftovers "$1"
  pkill -KILL -f -- "^$work/" 2>/dev/null
}
gone_within "three SIGTERMs"

# explore's reports name the signal as run's do (they said "a signal" for any but SIGINT, and its
# JSON had no interrupted_by).
rm -f "$work"/r.*
"$b" explore -p 2 --strategy coverage --max-runs 1000 --json "$work/r.json" --sarif "$work/r.sarif" \
  --junit "$work/r.xml" "$work/slow" >"$work/out" 2>&1 </dev/null &
pid=$!
wait_for_run
sleep 0.3
kill -HUP "$pid"
wait "$pid"; status=$?
[ "$status" = 129 ] || { echo "FAIL: explore, SIGHUP: exit status $status, expected 129"; tail -3 "$work/out"; fail=1; }
valid_reports "$work/r.json" "$work/r.sarif" "$work/r.xml" "
assert j['interrupted'] is True and j.get('interrupted_by') == 'SIGHUP', j
inv = s['runs'][0]['invocations'][0]
assert any('interrupted by SIGHUP' in n['message']['text'] for n in inv['toolExecutionNotifications']), inv
props = {p.get('name'): p.get('value') for p in x.iter('property')}
assert props.get('interrupted') == 'SIGHUP', props
"
# Its last line counts the schedules the reports hold (it counted the killed one too).
n="$(sed -n 's/^bsp-check: explore: interrupted after \([0-9]*\) schedules.*/\1/p' "$work/out")"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['total']; assert str(t) == sys.argv[2], (t, sys.argv[2])" \
  "$work/r.json" "$n" || { echo "FAIL: explore, SIGHUP: the last line's count is not the report's total"; tail -1 "$work/out"; fail=1; }
no_leftovers "explore, SIGHUP"

# A report is never truncated: an existing report stays whole until the new one replaces it.
echo '{"old": true}' >"$work/keep.json"
"$b" run -p 2 --seeds 1000 --json "$work/keep.json" "$work/slow" >/dev/null 2>&1 </dev/null &
pid=$!
wait_for_run
python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == {'old': True}" "$work/keep.json" ||
  { echo "FAIL: the report was changed before the session ended"; fail=1; }
kill -KILL "$pid"; wait "$pid" 2>/dev/null
python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == {'old': True}" "$work/keep.json" ||
  { echo "FAIL: a killed driver left its report changed"; fail=1; }
gone_within "a driver killed by SIGKILL"
# The same with runs that never end and -j workers (whose threads forked them), with the fork
# server and without: nothing spins on, orphaned, after a kill -9 of the driver.
for mode in "" --no-fork-server; do
  "$b" run -p 2 --seeds 100 -j 2 $mode "$work/nosync" >/dev/null 2>&1 </dev/null &
  pid=$!
  wait_for_run nosync
  sleep 0.3
  kill -KILL "$pid"; wait "$pid" 2>/dev/null
  gone_within "kill -9 of the driver, -j 2 $mode"
done
# explore's folder of the session goes too (the janitor removes it: tools/launch/temp_janitor.hpp).
"$b" explore -p 2 --strategy coverage --max-runs 1000 "$work/nosync" >/dev/null 2>&1 </dev/null &
pid=$!
wait_for_run nosync
sleep 0.3
kill -KILL "$pid"; wait "$pid" 2>/dev/null
gone_within "kill -9 of explore"

# shrink, replay and explore stop the same way, with a run under way that would never end on its
# own (nosync: process 1 never reaches the barrier, and these runs have no --timeout): the run is
# killed and reaped, nothing is left in $TMPDIR, the status is 128 + the signal.
# stopped SIGNAL STATUS PATTERN -- command...
stopped() {
  local sig="$1" want="$2" pattern="$3"; shift 4
  "$@" >"$work/out" 2>&1 </dev/null &
  local pid=$!
  wait_for_run nosync
  sleep 0.3
  kill -"$sig" "$pid"
  ( trap - EXIT; sleep 60; kill -KILL "$pid" 2>/dev/null ) &
  local guard=$!
  wait "$pid"; local status=$?
  kill -KILL "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
  [ "$status" = "$want" ] || { echo "FAIL: SIG$sig ${*:1:2}: exit status $status, expected $want"; tail -3 "$work/out"; fail=1; }
  grep -qE -- "$pattern" "$work/out" || { echo "FAIL: SIG$sig ${*:1:2}: output lacks /$pattern/:"; tail -3 "$work/out"; fail=1; }
  sleep 0.2
  no_leftovers "SIG$sig ${*:1:2}"
  pkill -KILL -f -- "$work/nosync" 2>/dev/null
}
# A single process syncing forever: the timeout names it (it runs the barrier when the time
# limit comes, most of the time: three runs), located at its bsp_sync, in the text and the JSON.
at_line="$(grep -n "/\* AT \*/" "$here/programs/sync_forever.c" | cut -d: -f1)"
for _ in 1 2 3; do
  "$b" run -p 1 --seed 1 --timeout 0.3 --no-keep-trace --json "$work/forever.json" "$work/sync_forever" >"$work/forever.out" 2>&1 </dev/null
  grep -qE "process\(es\) 0 had not reached their next bsp_sync" "$work/forever.out" &&
    grep -qE "^  at .*sync_forever.c:$at_line \(bsp_sync, process 0, running, not at the barrier\)" "$work/forever.out" ||
    { echo "FAIL: timeout at p = 1 does not name process 0 at its bsp_sync:"; head -3 "$work/forever.out"; fail=1; }
  python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['runs'][0]['findings'][0]; assert f['processes'] == [0] and f['locations'], f" \
    "$work/forever.json" || { echo "FAIL: timeout at p = 1: the JSON finding lacks its process or location"; fail=1; }
done

# A trace of a run that timed out (recorded by run itself: a single run records its trace).
"$b" run -p 2 --seed 1 --timeout 1 --trace-dir "$work" "$work/nosync" >"$work/run.out" 2>&1 </dev/null
rm -rf "${TMPDIR:?}"/*
nosync_trace="$work/nosync-p2-s1.trace"
[ -f "$nosync_trace" ] || { echo "FAIL: run --timeout 1 kept no trace of nosync"; fail=1; }
# Its replay line gives the time limit again (a trace's header does not keep it), and with it
# replay, shrink and explore of a run that never ends end on their own.
grep -qF "  replay: bsp-check replay --timeout 1 $nosync_trace" "$work/run.out" ||
  { echo "FAIL: run --timeout: the replay line lacks --timeout:"; grep replay: "$work/run.out"; fail=1; }
expect 1 "^bsp-check: 1 of 1 run FAILED" -- "$b" replay --timeout 1 "$nosync_trace"
expect 0 "^  replay: bsp-check replay --timeout 1 " -- "$b" shrink --timeout 1 -q -o "$work/nosync.min.trace" "$nosync_trace"
expect 1 "^  replay: bsp-check replay --timeout 1 " -- "$b" explore --timeout 1 -p 2 --trace-dir "$work" "$work/nosync"
no_leftovers "runs with --timeout"
stopped INT 130 "^bsp-check: shrink: interrupted by SIGINT after 0 runs" -- "$b" shrink "$nosync_trace"
# Its output is a file, not a terminal: no progress line, no \r or escape codes.
grep -q $'[\r\e]' "$work/out" && { echo "FAIL: shrink wrote terminal codes into a file:"; cat -A "$work/out" | head -3; fail=1; }
stopped TERM 143 "^bsp-check: shrink: interrupted by SIGTERM" -- "$b" shrink -q "$nosync_trace"
stopped HUP 129 "^bsp-check: shrink: interrupted by SIGHUP" -- "$b" shrink "$nosync_trace"
stopped INT 130 "^bsp-check: interrupted by SIGINT after 0 of 1 runs" -- "$b" replay "$nosync_trace"
stopped TERM 143 "^bsp-check: interrupted by SIGTERM after 0 of 1 runs" -- "$b" replay "$nosync_trace"
# nosync's first schedule never ends: none completed, in the last line as in the report.
stopped INT 130 "^bsp-check: explore: interrupted after 0 schedules; none failed$" -- "$b" explore -p 2 --json "$work/nosync.json" "$work/nosync"
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['total']; assert t == 0, t" "$work/nosync.json" ||
  { echo "FAIL: explore of nosync, SIGINT: the report's total is not 0"; fail=1; }
stopped TERM 143 "^bsp-check: explore: interrupted after [0-9]+ schedules" -- "$b" explore -p 2 "$work/nosync"

finish "robustness interrupt"
