#!/usr/bin/env python3
"""bsp-check stats: the runs of --json reports counted per strategy, rule and superstep, with the
failing seeds and the coverage tuples reached; a run in several inputs counts once; a bad input
is refused with exit 2. run --json lists the session's coverage tuples and each run's count.
Usage: stats_test.py BSP-CHECK MESSAGE-ORDER BOUNDS-PUT"""
import json
import os
import subprocess
import sys
import tempfile

bsp_check, message_order, bounds_put = sys.argv[1:4]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def bsp(*args):
    p = subprocess.run([bsp_check, *args], capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


with tempfile.TemporaryDirectory() as work:
    a, b, c = (os.path.join(work, n) for n in ("random.json", "pct.json", "bounds.json"))
    bsp("run", "-q", "-p", "3", "--seeds", "12", "--keep-going", "--json", a, message_order)
    bsp("run", "-q", "-p", "3", "--seeds", "12", "--keep-going", "--strategy", "pct", "--json", b, message_order)
    bsp("run", "-q", "-p", "2-3", "--seeds", "3", "--keep-going", "--json", c, bounds_put)
    ra, rb, rc = (json.load(open(f)) for f in (a, b, c))

    status, out, err = bsp("stats", "--json", a, b, a)  # a twice: counted once
    check(status == 0, f"stats --json: exit {status}: {err}")
    s = json.loads(out)
    check(s["runs"] == len(ra["runs"]) + len(rb["runs"]), f"runs counted {s['runs']}")
    for name, report in (("random", ra), ("pct", rb)):
        got = s["strategies"].get(name, {})
        failed = sum(1 for r in report["runs"] if not r["passed"])
        check(got.get("runs") == len(report["runs"]) and got.get("failed") == failed,
              f"{name}: {got} against {len(report['runs'])} runs, {failed} failed")
        check(1 <= got.get("distinct_behaviours", 0) <= len(report["runs"]), f"{name}: behaviours {got}")
        if failed:
            first = next(r for r in report["runs"] if not r["passed"])
            check(got["failing"][0] == f"p={first['procs']} seed={first['seed']}", f"{name}: first failing {got}")

    # Coverage: the report lists the session's tuples once; stats counts their union per strategy
    # (a report given twice adds nothing) and per superstep.
    for name, report in (("random", ra), ("pct", rb)):
        cov = report["coverage"]
        check(cov["tuples"] == len(cov["reached"]) > 0, f"{name}: coverage {cov}")
        check(all(0 < r["coverage"] <= cov["tuples"] for r in report["runs"] if "coverage" in r),
              f"{name}: a run reached more than the session")
        check(all(len(t) == 3 and t[1] in (2, 3, 4, 6) and t[2] in (0, 1, 2) for t in cov["reached"]),
              f"{name}: tuples {cov['reached'][:5]}")
        check(s["strategies"][name].get("coverage_tuples") == cov["tuples"],
              f"{name}: stats coverage {s['strategies'][name]} against {cov['tuples']}")
    steps_reached = {t[0] for r in (ra, rb) for t in r["coverage"]["reached"]}
    per_step = {e["superstep"]: e for e in s["supersteps"]}
    check(all(per_step.get(k, {}).get("coverage_tuples", 0) > 0 for k in steps_reached),
          f"per-superstep coverage {s['supersteps']}")

    # run -v: a note under each run that adds coverage tuples, and the total at the end.
    status, out, err = bsp("run", "-v", "-p", "3", "--seeds", "6", "--keep-going", "--schedule-dependent-output",
                           message_order)
    grown = [int(m) for m in __import__("re").findall(r"note: coverage \+\d+ tuples?, (\d+) in all", err)]
    check(1 <= len(grown) <= 6 and grown == sorted(set(grown)) and f"; {grown[-1]} coverage tuples)" in err,
          f"run -v coverage: {err[-800:]}")

    status, out, err = bsp("stats", "--json", c)
    s = json.loads(out)
    rule = s["rules"].get("bounds-put", {})
    with_rule = [r for r in rc["runs"] if any(f["rule"] == "bounds-put" for f in r["findings"])]
    check(rule.get("runs") == len(with_rule) and rule.get("severity") == "error", f"bounds-put: {rule}")
    steps = {f["superstep"] for r in with_rule for f in r["findings"] if f["rule"] == "bounds-put"}
    check(set(rule.get("supersteps", [])) == steps, f"bounds-put supersteps {rule} against {steps}")
    per_step = {e["superstep"]: e for e in s["supersteps"]}
    for k in steps:
        check(per_step.get(k, {}).get("rules", {}).get("bounds-put") == len(with_rule), f"superstep {k}: {per_step.get(k)}")
    check(per_step[0]["reached"] == len(rc["runs"]), f"every run reaches superstep 0: {per_step[0]}")

    status, out, err = bsp("stats", a, b, c)
    check(status == 0 and "per strategy:" in out and "per rule:" in out and "per superstep:" in out and
          "bounds-put" in out and "pct" in out and "coverage" in out, f"text tables: {out[-800:]}")

    junk = os.path.join(work, "junk.json")
    open(junk, "w").write('{"format": "something else"}')
    status, out, err = bsp("stats", junk)
    check(status == 2 and err.count("\n") == 1 and "not a bsp-check --json report" in err, f"junk: {status} {err}")
    status, out, err = bsp("stats")
    check(status == 2, f"no input: exit {status}")

if failures:
    sys.exit(1)
print("ok: stats")
