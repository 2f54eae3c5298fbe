#!/usr/bin/env bash
# scripts/slurm/bsp-check-array.sh without Slurm: each array task is run as Slurm would start it
# (SLURM_ARRAY_TASK_* in the environment), then the merge step; the merged report must be the
# unsharded session's.
# Usage: slurm_script_test.sh BSP-CHECK SCRIPT PROGRAM
set -uo pipefail
b="$1"; script="$2"; prog="$3"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
# The first failing run's trace is kept in the current folder: this test's own, not the folder
# that the other tests running beside it share.
cd "$work" || exit 1
export BSPCHECK="$b" SHARD_DIR="$work/shards" PROCS=2,3 SEEDS=5
for task in 0 1 2 3; do
  SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=4 \
    bash "$script" "$prog" >/dev/null 2>&1
  [ $? -le 1 ] || { echo "FAIL: array task $task exited $?"; exit 1; }
done
bash "$script" --merge 2>/dev/null; status=$?
[ "$status" -le 1 ] || { echo "FAIL: the merge step exited $status"; exit 1; }
"$b" run -q -p 2,3 --seeds 5 --keep-going --json "$work/whole.json" "$prog" >/dev/null 2>&1
python3 - "$work" <<'PY' || exit 1
import json, sys
w = sys.argv[1]
m, whole = json.load(open(f"{w}/shards/merged.json")), json.load(open(f"{w}/whole.json"))
key = lambda r: (r["procs"], r["seed"])
strip = lambda runs: sorted(({k: v for k, v in r.items() if k != "seconds"} for r in runs), key=key)
if strip(m["runs"]) != strip(whole["runs"]) or len(m["shards"]) != 4:
    a, b = strip(m["runs"]), strip(whole["runs"])
    for x, y in zip(a, b):  # the first run that differs, to say why
        if x != y:
            print("merged:", json.dumps(x)[:2000])
            print("whole: ", json.dumps(y)[:2000])
            break
    print(f"FAIL: the merged array is not the unsharded session ({len(a)} and {len(b)} runs, "
          f"{len(m['shards'])} shards)"); sys.exit(1)
for f in ("merged.sarif", "merged.xml"):
    open(f"{w}/shards/{f}").read()
PY
# Outside an array it refuses, saying how to run it.
out="$(env -u SLURM_ARRAY_TASK_ID bash "$script" "$prog" 2>&1)" && { echo "FAIL: ran outside a job array"; exit 1; }
grep -q "job array" <<<"$out" || { echo "FAIL: outside an array it said: $out"; exit 1; }
echo "slurm script test: ok"
