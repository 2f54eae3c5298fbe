#!/usr/bin/env bash
# A run killed from outside by SIGKILL (the out-of-memory killer, kill -9) keeps, in the JSON,
# SARIF and JUnit reports, the findings it had printed before (issue 43, item 7): the runtime
# writes the report so far at each finding it prints. With and without the fork server.
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
no_leftovers "runs killed after a finding"
[ "$fail" = 0 ] && echo "killed run reports test: ok"
exit "$fail"
