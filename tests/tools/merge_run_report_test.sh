#!/usr/bin/env bash
# bsp-check merge of run reports (tools/reports/merge_input.hpp): the report a program linked with
# the runtime writes itself (BSPCHECK_OPTIONS=report=PATH, as an MPI job's is, docs/mpi.md) is one
# run of the merge:
#  - a failing run report gives exit 1, SARIF naming the rule at the source line marked "BUG:",
#    one failing JUnit test case and one run of its p in the JSON; a clean one exits 0;
#  - an MPI job's report ("backend": "mpi") is reproduced by `mpiexec -n RANKS PROGRAM ARGS...`;
#  - two run reports of the same p and seed are two runs, not one, also once merged again;
#  - a JSON object that is neither kind of report is refused: exit 2, one line.
# Usage: merge_run_report_test.sh BSP-CHECK CHK_BOUNDS_PUT CHK_BOUNDS_PUT_OK BOUNDS_PUT.C
set -uo pipefail
b="$1"; bug="$2"; ok="$3"; source="$4"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
say() { echo "FAIL: $*"; fail=1; }
line="$(grep -n 'BUG: bounds-put' "$source" | head -1 | cut -d: -f1)"
[ -n "$line" ] || say "no BUG: bounds-put line in $source"

# 1. A failing run, started directly (no driver).
BSPCHECK_OPTIONS="procs=3:report=$work/r.json" "$bug" >/dev/null 2>&1
[ -s "$work/r.json" ] || say "the program wrote no run report"
"$b" merge --sarif "$work/s.sarif" --junit "$work/j.xml" --json "$work/m.json" "$work/r.json" 2>"$work/merge.err"
status=$?
[ "$status" = 1 ] || say "merge of a failing run report exited $status, not 1: $(cat "$work/merge.err")"
grep -q "1 run report" "$work/merge.err" || say "the summary does not count the run report: $(cat "$work/merge.err")"
python3 - "$work" "$source" "$line" <<'PY' || fail=1
import json, os, sys, xml.dom.minidom
work, source, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what); bad = 1
m = json.load(open(f"{work}/m.json"))
check(m["format"] == "bsp-check-runs" and len(m["runs"]) == 1, f"m.json runs: {len(m['runs'])}")
run = m["runs"][0]
check(run["procs"] == 3 and run["passed"] is False, f"the run: procs {run['procs']}, passed {run['passed']}")
check(m["total"] == 1 and m["failed"] == 1 and m["planned"] == 1, f"total/failed/planned {m['total']} {m['failed']} {m['planned']}")
check(any(f["rule"] == "bounds-put" for f in run["findings"]), "no bounds-put finding in m.json")
sarif = json.load(open(f"{work}/s.sarif"))
results = sarif["runs"][0]["results"]
name = os.path.basename(source)
def at_bug(r):
    for loc in r.get("locations", []):
        phys = loc.get("physicalLocation", {})
        if phys.get("artifactLocation", {}).get("uri", "").endswith(name) and phys.get("region", {}).get("startLine") == line:
            return True
    return False
check(any(r["ruleId"] == "bounds-put" and at_bug(r) for r in results),
      f"the SARIF names no bounds-put at {name}:{line}: {[(r['ruleId'], r.get('locations')) for r in results]}")
cases = xml.dom.minidom.parse(f"{work}/j.xml").getElementsByTagName("testcase")
check(len(cases) == 1 and len(cases[0].getElementsByTagName("failure")) == 1,
      f"JUnit: {len(cases)} test cases, the first failing: {bool(cases and cases[0].getElementsByTagName('failure'))}")
sys.exit(bad)
PY

# 2. A clean run report merges with exit 0.
BSPCHECK_OPTIONS="procs=3:report=$work/ok.json" "$ok" >/dev/null 2>&1
"$b" merge --json "$work/mok.json" "$work/ok.json" 2>"$work/ok.err"
status=$?
[ "$status" = 0 ] || say "merge of a clean run report exited $status: $(cat "$work/ok.err")"

# 3. An MPI job's report: reproduced with mpiexec, its arguments quoted for the shell.
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r.update({"backend": "mpi", "program": "./x", "args": ["a b"], "ranks": 4})
json.dump(r, open(sys.argv[2], "w"))' "$work/r.json" "$work/mpi.json"
"$b" merge --json "$work/mmpi.json" "$work/mpi.json" 2>"$work/mpi.err"
status=$?
[ "$status" = 1 ] || say "merge of the MPI job's failing report exited $status"
python3 - "$work" <<'PY' || fail=1
import json, sys
m = json.load(open(f"{sys.argv[1]}/mmpi.json"))
repro = [r["reproduce"] for r in m["runs"]]
if repro != ["mpiexec -n 4 ./x 'a b'"] or m["program"] != "./x" or m["args"] != ["a b"]:
    print("FAIL: the MPI job's run:", repro, m["program"], m["args"]); sys.exit(1)
PY
grep -qF "reproduce: mpiexec -n 4 ./x 'a b'" "$work/mpi.err" || say "merge does not print the job's reproduce line: $(cat "$work/mpi.err")"
# SARIF names the job's run by its run report and ranks (it has no seed).
"$b" merge --sarif "$work/mmpi.sarif" "$work/mpi.json" 2>/dev/null
python3 -c 'import json, sys; rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
refs = [x for r in rs for x in r["properties"]["runs"]]
sys.exit(not refs or any(x.get("run_report") != 1 or x.get("mpi_ranks") != 4 for x in refs))' "$work/mmpi.sarif" ||
  say "SARIF of an MPI job's run does not name its run report and ranks: $(head -c 400 "$work/mmpi.sarif")"
# stats lists the job under "mpi": it ran under no strategy of bsp-check's.
"$b" stats --json "$work/mmpi.json" >"$work/mpi-stats.json" 2>&1
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["strategies"]; sys.exit(list(s) != ["mpi"] or s["mpi"]["runs"] != 1)' \
  "$work/mpi-stats.json" || say "stats of an MPI job's run: $(head -c 400 "$work/mpi-stats.json")"

# 4. Two jobs of the same p and seed are two runs; merging the merged report again keeps both,
# and merging it with itself changes nothing.
BSPCHECK_OPTIONS="procs=3:report=$work/r2.json" "$bug" >/dev/null 2>&1
"$b" merge --json "$work/two.json" "$work/r.json" "$work/r2.json" 2>/dev/null
"$b" merge --json "$work/again.json" "$work/two.json" "$work/two.json" 2>/dev/null
# beside a session report: its runs and the job's
"$b" run -q -p 2 --seeds 2 --json "$work/session.json" "$ok" >/dev/null 2>&1
"$b" merge --json "$work/mixed.json" "$work/ok.json" "$work/session.json" 2>"$work/mixed.err"
status=$?
[ "$status" = 0 ] || say "merge of a session and a clean run report exited $status: $(cat "$work/mixed.err")"
python3 - "$work" <<'PY' || fail=1
import json, sys
work = sys.argv[1]
load = lambda f: json.load(open(f"{work}/{f}"))
two, again, mixed, session = load("two.json"), load("again.json"), load("mixed.json"), load("session.json")
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what); bad = 1
key = lambda r: (r["procs"], r["seed"])
check(len(two["runs"]) == 2 and key(two["runs"][0]) == key(two["runs"][1]) and two["planned"] == 2,
      f"two run reports of one p and seed: {[key(r) for r in two['runs']]}, planned {two['planned']}")
check(again == two, "merging the merged run reports with itself changes them")
check(len(mixed["runs"]) == len(session["runs"]) + 1 and mixed["planned"] == session["planned"] + 1,
      f"a session with a run report: {len(mixed['runs'])} runs, planned {mixed['planned']}")
check(mixed["program"] == session["program"] and mixed["options"] == session["options"],
      "the session report does not name the merged session")
sys.exit(bad)
PY
grep -q "(1 shard, 1 run report)" "$work/mixed.err" || say "mixed summary: $(cat "$work/mixed.err")"

# 5. Neither kind of report: exit 2, one line.
expect2() {
  local out; out="$("$@" 2>&1)"; local st=$?
  [ "$st" = 2 ] || say "'$*' exited $st, not 2"
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && grep -q '^bsp-check: error: ' <<<"$out" || say "'$*' said: $out"
}
for bad in '{"x":1}' '{"completed":true}' '{"completed":"yes","findings":[]}' '{"completed":true,"findings":{}}' \
           '{"completed":true,"findings":[],"nprocs":-1}' '{"completed":true,"findings":[],"args":[1]}' \
           '{"completed":true,"findings":[],"format":"other"}' '{"completed":true,"findings":[],"ranks":"4"}'; do
  printf '%s' "$bad" >"$work/bad.json"
  expect2 "$b" merge "$work/bad.json"
done

[ "$fail" = 0 ] && echo "merge of run reports test: ok"
exit "$fail"
