"""A process that spins on a flag another process's bsp_hpput writes in the same superstep, with no
BSPlib call in its loop (tests/asan/hp_flag_spin.c): every run fails, either with hp-dst-read at the
loop (the hpput was called first: its destination is poisoned) or with a timeout whose message names
the hazard (the spinner ran first, and the hpput's caller never got to run). A timeout without a
reason would fail this test.

usage: spin_test.py BSP_CHECK PROGRAM SOURCE
"""
import json, os, subprocess, sys, tempfile

bsp_check, program, source = sys.argv[1:4]
loop = next(i for i, l in enumerate(open(source, encoding="utf-8"), 1) if "/* BUG: hp-dst-read" in l)
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "runs.json")
    # The time limit leaves room for AddressSanitizer's report of the read on a fiber's stack, whose
    # first symbolisation of the runtime library takes seconds.
    # Seeds 5..8: the hpput's caller runs first on seed 5, the spinner on 6..8 (both kinds are seen).
    res = subprocess.run([bsp_check, "run", "-p", "2", "--seed", "5", "--seeds", "4", "-j", "2", "--keep-going",
                          "--timeout", "5",
                          "--json", out, program], stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    text = (res.stdout + res.stderr).decode(errors="replace")
    runs = json.load(open(out))["runs"]
assert res.returncode == 1, f"exit {res.returncode}\n{text[-3000:]}"
assert len(runs) == 4, runs
kinds = set()
for r in runs:
    assert not r["passed"], r
    rules = {f["rule"] for f in r["findings"]}
    if "hp-dst-read" in rules:
        f = next(f for f in r["findings"] if f["rule"] == "hp-dst-read")
        assert any(l["line"] == loop and l["call"] in ("read", "write") for l in f["locations"]), f
        kinds.add("hp-dst-read")
    else:
        f = next((f for f in r["findings"] if f["rule"] == "timeout"), None)
        assert f, f"seed {r['seed']}: neither hp-dst-read nor timeout: {r['findings']}"
        m = f["message"]
        assert "may be waiting, without BSPlib calls" in m and "hp-dst-read" in m, m
        assert "process(es) 0 had made no BSPlib call in this superstep" in m or "process 0's bsp_hpput" in m, m
        kinds.add("timeout naming the hazard")
assert kinds == {"hp-dst-read", "timeout naming the hazard"}, kinds
print(f"ok: 4 runs, each {' or '.join(sorted(kinds))}")
