"""An ASan-only rule fires on every seed, names the call and the line of the access (marked BUG)
and fails the run.

usage: asan_rule_test.py BSP_CHECK PROGRAM SOURCE RULE
"""
import json, os, subprocess, sys, tempfile

bsp_check, program, source, rule = sys.argv[1:5]
call_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* CALL */" in l)
bug_line = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* BUG: " + rule in l)
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "runs.json")
    res = subprocess.run([bsp_check, "run", "-p", "2", "--seeds", "10", "--keep-going", "--json", out, program],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    text = (res.stdout + res.stderr).decode(errors="replace")
    assert res.returncode == 1, f"expected exit 1, got {res.returncode}\n{text[-3000:]}"
    runs = json.load(open(out))["runs"]
assert len(runs) == 10, runs
for r in runs:
    hits = [f for f in r["findings"] if f["rule"] == rule and f["severity"] == "error"
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == call_line for l in f["locations"])
            and any(l["file"].endswith(os.path.basename(source)) and l["line"] == bug_line and l["call"] in ("read", "write")
                    for l in f["locations"])]
    assert hits, f"seed {r['seed']}: no {rule} error naming {os.path.basename(source)}:{call_line} and the access at {bug_line}: {r}"
print(f"ok: {rule} on all 10 seeds at {os.path.basename(source)}:{call_line}, the access at line {bug_line}")
