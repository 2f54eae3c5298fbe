#!/usr/bin/env bash
# A run killed from outside by SIGKILL (the out-of-memory killer, kill -9) keeps, in the JSON,
# SARIF and JUnit reports, the findings it had printed before (issue 43, item 7): the runtime
# writes the report so far at each finding it prints. With and without the fork server, for a
# run that kills itself after an error; and, killed by this test, a single (streamed) run that
# printed a warning and spins: SIGKILL as the out-of-memory killer sends it, SIGTERM as a kill
# does. The session then ends: a killed run is not run again to check its determinism.
#   killed_run_reports_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
b="$BSPCHECK"
compile killed_after_finding
bug_line="$(grep -n 'BUG: bounds-put' "$here/programs/killed_after_finding.c" | cut -d: -f1)"
for server in "" --no-fork-server; do
  # shellcheck disable=SC2086
  "$b" run -p 2 --seeds 2 --keep-going $server --json "$work/r.json" --sarif "$work/r.sarif" --junit "$work/r.xml" \
    "$work/killed_after_finding" >"$work/out" 2>&1 </dev/null
  status=$?
  [ "$status" = 1 ] || { echo "FAIL: ${server:-fork server}: exit $status"; tail -5 "$work/out"; fail=1; }
  python3 - "$work/r.json" "$work/r.sarif" "$work/r.xml" "$bug_line" "${server:-fork server}" <<'PY' || fail=1
import json, sys, xml.dom.minidom
js, sarif, junit, line, how = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
runs = json.load(open(js))["runs"]
assert len(runs) == 2, (how, runs)
for r in runs:
    assert not r["passed"] and "SIGKILL" in r.get("reason", ""), (how, "the run's end is said", r)
    hits = [f for f in r["findings"] if f["rule"] == "bounds-put" and any(l["line"] == line for l in f["locations"])]
    assert hits, (how, "the JSON lost the finding printed before the kill", r)
results = json.load(open(sarif))["runs"][0]["results"]
assert any(res["ruleId"] == "bounds-put" and res["locations"][0]["physicalLocation"]["region"]["startLine"] == line
           for res in results), (how, "the SARIF lost it", results)
failures = xml.dom.minidom.parse(junit).getElementsByTagName("failure")
assert len(failures) == 2 and all("bounds-put" in f.toxml() for f in failures), (how, "the JUnit lost it")
PY
done

# A single run prints its findings as they come: once the warning is printed, the run (the
# program's process, not the driver) is killed from outside while process 0 spins.
compile warning_then_spin
warn_line="$(grep -n 'WARNING: put-collision' "$here/programs/warning_then_spin.c" | cut -d: -f1)"
for sig in KILL TERM; do
  rm -f "$work"/w.*
  # timeout: a hang guard only. A driver that ran the spinning program again (without --timeout)
  # would never end; it is killed after 60 s and fails the status check.
  timeout -s KILL 60 "$b" run -p 3 --seed 1 --timeout 0 --json "$work/w.json" --sarif "$work/w.sarif" --junit "$work/w.xml" \
    "$work/warning_then_spin" >"$work/w.out" 2>&1 </dev/null &
  driver=$!
  for _ in $(seq 1200); do
    grep -q 'warning\[put-collision\]' "$work/w.out" && break
    sleep 0.05
  done
  # The program itself (its command line starts with its path), not the driver; and the session's
  # own run, whose options record into the session's trace, not the determinism check's twin
  # beside it (tools/across_runs/check_run_beside.hpp), which spins on and must be ended by the driver.
  run=""
  for pid in $(pgrep -f -- "^$work/warning_then_spin"); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -q '^BSPCHECK_OPTIONS=.*bsp-check-single' && run="$pid"
  done
  if grep -q 'warning\[put-collision\]' "$work/w.out" && [ -n "$run" ]; then
    kill -"$sig" "$run"
  else
    echo "FAIL: SIG$sig: no warning printed by a run under way"; cat "$work/w.out"; fail=1; kill -KILL "$driver"
  fi
  wait "$driver"; status=$?
  [ "$status" = 1 ] || { echo "FAIL: SIG$sig of a streamed run: exit $status"; tail -5 "$work/w.out"; fail=1; }
  python3 - "$work/w.json" "$work/w.sarif" "$work/w.xml" "$warn_line" "$sig" <<'PY' || fail=1
import json, sys, xml.dom.minidom
js, sarif, junit, line, sig = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
runs = json.load(open(js))["runs"]
assert len(runs) == 1, (sig, runs)
r = runs[0]
assert not r["passed"] and ("SIG" + sig) in r.get("reason", ""), (sig, "the run's end is said", r)
if sig != "KILL":
    assert "the findings it printed before are kept" in r["reason"], (sig, r["reason"])
assert [f["rule"] for f in r["findings"]] == ["put-collision"], (sig, "only the printed warning", r["findings"])
assert {l["line"] for l in r["findings"][0]["locations"]} == {line}, (sig, r["findings"])
results = json.load(open(sarif))["runs"][0]["results"]
assert [(res["ruleId"], res["level"]) for res in results] == [("put-collision", "warning")], (sig, results)
assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == line, (sig, results)
failures = xml.dom.minidom.parse(junit).getElementsByTagName("failure")
assert len(failures) == 1 and "put-collision" in failures[0].toxml(), (sig, "the JUnit lost it")
PY
  python3 "$here/../tools/sarif_object_model.py" "$work/w.sarif" >/dev/null ||
    { echo "FAIL: SIG$sig: the SARIF breaks the object model"; fail=1; }
done
no_leftovers "runs killed after a finding"
[ "$fail" = 0 ] && echo "killed run reports test: ok"
exit "$fail"
