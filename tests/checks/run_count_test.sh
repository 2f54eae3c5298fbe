#!/usr/bin/env bash
# Usage: run_count_test.sh
# checks.py counts the runs of a session: a twin reported clean must have had every run asked for
# (p = 1..8 times the seeds), not fewer. A stand-in bsp-check writes a JSON report of clean runs,
# all of them (passes) or one short (the negative control: fails, naming the count).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
# The stand-in: `bsp-check run ... --json FILE ... -p P --seed S --seeds N PROGRAM` with RUNS_SHORT
# runs left out.
cat >"$tmp/bsp-check" <<'PY'
#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
out, procs, seed, seeds = a[a.index("--json") + 1], a[a.index("-p") + 1], int(a[a.index("--seed") + 1]), int(a[a.index("--seeds") + 1])
lo, _, hi = procs.partition("-")
runs = [{"procs": p, "seed": s, "passed": True, "findings": []}
        for p in range(int(lo), int(hi or lo) + 1) for s in range(seed, seed + seeds)]
runs = runs[:len(runs) - int(os.environ.get("RUNS_SHORT", "0"))]
json.dump({"runs": runs}, open(out, "w"))
PY
chmod +x "$tmp/bsp-check"
status=0
python3 "$here/checks.py" clean --bsp-check "$tmp/bsp-check" --program /bin/true --procs 1-8 --seeds 3 >"$tmp/out" 2>&1 || status=$?
if [ "$status" = 0 ] && grep -q "clean in 24 runs" "$tmp/out"; then echo "ok: 24 of 24 runs: clean"
else echo "FAIL: 24 of 24 runs: exit $status"; cat "$tmp/out"; fail=1; fi
status=0
RUNS_SHORT=1 python3 "$here/checks.py" clean --bsp-check "$tmp/bsp-check" --program /bin/true --procs 1-8 --seeds 3 \
  >"$tmp/out" 2>&1 || status=$?
if [ "$status" = 1 ] && grep -q "23 runs in the JSON report, expected 24" "$tmp/out"; then echo "ok: 23 of 24 runs: fails"
else echo "FAIL: 23 of 24 runs passed as clean (exit $status)"; cat "$tmp/out"; fail=1; fi
exit "$fail"
