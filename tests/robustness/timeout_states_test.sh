#!/usr/bin/env bash
# The timeout finding names every process with its state and location, in the text, the JSON and
# the SARIF alike (issue 43, items 3 and 8): the one running ("running, not at the barrier"),
# those waiting in bsp_sync, and one that never ran, located at the bsp_begin that starts it
# (not at "<unknown>").
#   timeout_states_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
b="$BSPCHECK"
compile timeout_states
src="$here/programs/timeout_states.c"
line_of() { grep -n "/\* $1 \*/" "$src" | cut -d: -f1; }

# check MODE SEEDS...: every run's timeout finding locates each of the 3 processes once, with a
# state, at a line of the program; appends the states seen to $work/states.MODE, one per line.
check() {
  local mode="$1"; shift
  for seed in "$@"; do
    "$b" run -p 3 --seed "$seed" --timeout 0.5 --no-keep-trace --json "$work/t.json" --sarif "$work/t.sarif" \
      "$work/timeout_states" "$mode" >"$work/t.out" 2>&1 </dev/null
    python3 - "$work/t.json" "$work/t.sarif" "$work/t.out" "$(line_of BEGIN)" "$mode" "$seed" <<'PY' || fail=1
import json, re, sys
js, sarif, out, begin, mode, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
text = open(out).read()
f = [f for f in json.load(open(js))["runs"][0]["findings"] if f["rule"] == "timeout"]
assert len(f) == 1, (mode, seed, text)
locs = f[0]["locations"]
assert sorted(l["process"] for l in locs) == [0, 1, 2], (mode, seed, locs)
for l in locs:
    assert l.get("state"), ("a location without state", mode, seed, l)
    assert l["file"].endswith("timeout_states.c") and l["line"] > 0, ("unlocated", mode, seed, l)
    if l["state"].startswith("never ran"):
        assert l["line"] == begin and l["call"] == "bsp_begin", l
    # The text says the same, process by process.
    assert re.search(r"^  at .*timeout_states\.c:%d \(%s, process %d, %s\)$" % (l["line"], l["call"], l["process"],
                     re.escape(l["state"])), text, re.M), (l, text)
assert "<unknown>" not in text, text
# SARIF: each process in a thread flow, its state in the location's message and properties.
res = [r for r in json.load(open(sarif))["runs"][0]["results"] if r["ruleId"] == "timeout"]
assert len(res) == 1, res
flows = {t["id"]: t["locations"][0]["location"] for t in res[0]["codeFlows"][0]["threadFlows"]}
for l in locs:
    loc = flows["process %d" % l["process"]]
    assert loc["properties"]["state"] == l["state"] and l["state"] in loc["message"]["text"], (loc, l)
for l in locs:
    print(l["state"])
PY
  done >>"$work/states.$mode"
}
# The states the schedules reach: over these seeds, process 0 spins before or after the others
# ran (early), and the others wait in bsp_sync (late).
check early 1 2 3 4 5 6
check late 1 2 3
early="$(cat "$work/states.early")"; late="$(cat "$work/states.late")"
grep -q "^never ran" <<<"$early" || { echo "FAIL: no seed left a process unstarted: $early"; fail=1; }
grep -q "^running, not at the barrier" <<<"$early$late" || { echo "FAIL: no running process named"; fail=1; }
grep -q "^waiting in bsp_sync" <<<"$late" || { echo "FAIL: no process waiting in bsp_sync named: $late"; fail=1; }
python3 "$here/../tools/sarif_object_model.py" "$work/t.sarif" >/dev/null || { echo "FAIL: the SARIF breaks the object model"; fail=1; }

# A process blocked in a counting sync waits in it: its state says so in the JSON, the SARIF and
# the text, and the message does not count it among those that had not reached their sync.
compile timeout_counting_sync
wait_line="$(grep -n '/\* WAIT \*/' "$here/programs/timeout_counting_sync.c" | cut -d: -f1)"
spin_line="$(grep -n '/\* LAST CALL' "$here/programs/timeout_counting_sync.c" | cut -d: -f1)"
for seed in 1 2 3; do
  "$b" run -p 2 --seed "$seed" --timeout 0.5 --no-keep-trace --json "$work/c.json" --sarif "$work/c.sarif" \
    "$work/timeout_counting_sync" >"$work/c.out" 2>&1 </dev/null
  python3 - "$work/c.json" "$work/c.sarif" "$work/c.out" "$wait_line" "$spin_line" "$seed" <<'PY' || fail=1
import json, sys
js, sarif, out, wait_line, spin_line, seed = sys.argv[1:]
text = open(out).read()
f = [f for f in json.load(open(js))["runs"][0]["findings"] if f["rule"] == "timeout"]
assert len(f) == 1, (seed, text)
locs = {l["process"]: l for l in f[0]["locations"]}
assert locs[1]["state"] == "waiting in cBSP_nsync" and locs[1]["line"] == int(wait_line), (seed, locs)
assert locs[0]["state"] == "running, not at the barrier" and locs[0]["line"] == int(spin_line), (seed, locs)
assert f[0]["processes"] == [0], (seed, "only the spinning process had not reached its sync", f[0])
assert "process(es) 0 had not reached" in f[0]["message"], f[0]["message"]
assert "process(es) 1 waited in a counting or lazy sync" in f[0]["message"], f[0]["message"]
assert "cBSP_nsync, process 1, waiting in cBSP_nsync)" in text, text
res = [r for r in json.load(open(sarif))["runs"][0]["results"] if r["ruleId"] == "timeout"]
flows = {t["id"]: t["locations"][0]["location"] for t in res[0]["codeFlows"][0]["threadFlows"]}
assert flows["process 1"]["properties"]["state"] == "waiting in cBSP_nsync", flows
PY
done
python3 "$here/../tools/sarif_object_model.py" "$work/c.sarif" >/dev/null || { echo "FAIL: the cBSP SARIF breaks the object model"; fail=1; }
no_leftovers "timeouts"
[ "$fail" = 0 ] && echo "timeout states test: ok"
exit "$fail"
