#!/usr/bin/env bash
# A finding without a line says why (issue 43, item 8): uncontrolled-nondeterminism whose
# locating replay does not part again names no call site, and says so in its message; the
# summary table names its superstep instead of "<unknown>".
#   unlocated_findings_test.sh BSP-CHECK BSPCC [CFLAGS]
BSPCHECK="$1"; BSPCC="$2"; CFLAGS="${3:-}"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
b="$BSPCHECK"
compile second_run_differs
# Two seeds, one run at a time, so that the summary table is printed and the runs count in order.
# The runs count themselves in /dev/shm, which they share: a file in the working or temporary
# directory would be each run's own (docs/semantics.md, "What a run sees of the machine").
count="$(mktemp /dev/shm/bsp-check-count.XXXXXX)"
"$b" run -j 1 --no-fork-server -p 2 --seeds 2 --json "$work/r.json" "$work/second_run_differs" "$count" \
  >"$work/out" 2>&1 </dev/null
python3 - "$work/r.json" "$work/out" <<'PY' || fail=1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
out = open(sys.argv[2]).read()
f = [f for r in runs for f in r["findings"] if f["rule"] == "uncontrolled-nondeterminism"]
assert f, f"no uncontrolled-nondeterminism: {out}"
f = f[0]
assert f["locations"] == [], f"the replay should not have parted again (it sends as the run it replays): {f}"
assert "No line:" in f["message"] and "did not recur" in f["message"], f"the finding does not say why it has no line: {f}"
assert "<unknown>" not in out, out
assert f"superstep {f['superstep']}, no line" in out, f"the summary does not name the superstep: {out}"
PY
rm -f "$count"
no_leftovers "unlocated findings"
[ "$fail" = 0 ] && echo "unlocated findings test: ok"
exit "$fail"
