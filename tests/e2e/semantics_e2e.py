#!/usr/bin/env python3
"""End-to-end checks of issue 11 part 3 (stdlib only).

Subcommands:
  time_is_seed_independent   a correct program printing bsp_time differences passes
                             `bsp-check run --seeds 20` (no schedule-divergence); with
                             --time-jitter its output differs between seeds and the rule fires
  after_end_in_every_report  a BSPlib call and a crash after bsp_end are findings, with file and
                             line, in --json, --sarif and --junit
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TIMEOUT = 600


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def run(cmd):
    env = dict(os.environ)
    env.pop("BSPCHECK_OPTIONS", None)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)


def describe(cmd, res):
    return (f"command: {' '.join(cmd)}\nexit status: {res.returncode}\n"
            f"--- stdout ---\n{res.stdout.decode(errors='replace')[:3000]}\n"
            f"--- stderr ---\n{res.stderr.decode(errors='replace')[:3000]}")


def cmd_time(a):
    json_path = os.path.join(a.workdir, "print_time.json")
    cmd = [a.bsp_check, "run", "-p", "1-4", "--seeds", "20", "-v", "--json", json_path, a.print_time]
    res = run(cmd)
    ctx = describe(cmd, res)
    check(res.returncode == 0, f"expected exit 0: bsp_time must not depend on the seed\n{ctx}")
    lines = [l for l in res.stdout.decode(errors="replace").splitlines() if l.startswith("print_time:")]
    check(len(lines) == 20 * (1 + 2 + 3 + 4), f"expected one line per process and run, got {len(lines)}\n{ctx}")
    with open(json_path, encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    rules = {x.get("rule") for r in runs for x in r.get("findings", [])}
    check("schedule-divergence" not in rules, f"schedule-divergence reported: {rules}\n{ctx}")
    # The lines of one (p, pid) are identical under all 20 seeds.
    per_key = {}
    for l in lines:
        m = re.match(r"print_time: pid (\d+) sum (\d+): exchange took ([0-9.]+) s, total ([0-9.]+) s", l)
        check(m, f"unexpected line {l!r}\n{ctx}")
        per_key.setdefault((int(m.group(2)), int(m.group(1))), set()).add(l)
    for key, variants in per_key.items():
        check(len(variants) == 1, f"(sum, pid) {key} printed {len(variants)} different lines: {variants}")
    print(f"ok: {len(lines)} lines, each the same under 20 seeds; no schedule-divergence")

    # The opt-in jitter makes the printed times seed-dependent, which the divergence rule sees.
    cmd = [a.bsp_check, "run", "-q", "-p", "2", "--seeds", "20", "--no-keep-trace", "--time-jitter", a.print_time]
    res = run(cmd)
    ctx = describe(cmd, res)
    check(res.returncode == 1, f"with --time-jitter the printed times must differ between seeds\n{ctx}")
    check(b"schedule-divergence" in res.stdout + res.stderr, f"schedule-divergence not named\n{ctx}")
    print("ok: with --time-jitter the output diverges and schedule-divergence fires")
    # The finding is located (each seed's last BSPlib call before the differing line, in the
    # program's source), and its reproduce command, a session from the reference seed, fails too.
    text = (res.stdout + res.stderr).decode(errors="replace")
    check(re.search(r"\n  at \S*print_time\.c:\d+ \(bsp_\w+, process \d+\)", text),
          f"the divergence names no call site in print_time.c\n{ctx}")
    m = re.search(r"  reproduce: bsp-check run (-p 2 --seed \d+ --seeds \d+ .*)", text)
    check(m, f"no session reproduce command\n{ctx}")
    again = [a.bsp_check, "run", "-q", "--no-keep-trace"] + m.group(1).replace("'", "").split()
    res2 = run(again)
    check(res2.returncode == 1 and b"schedule-divergence" in res2.stdout + res2.stderr,
          f"the reproduce command does not fail with the divergence\n{describe(again, res2)}")
    print("ok: the divergence is located, and its reproduce command fails")
    # Its kept trace carries the reference run's output digests: replayed alone, it fails with
    # the divergence too (before, it replayed clean).
    with tempfile.TemporaryDirectory() as d:
        cmd = [a.bsp_check, "run", "-q", "-p", "2", "--seeds", "20", "--trace-dir", d, "--time-jitter", a.print_time]
        res = run(cmd)
        traces = [f for f in os.listdir(d) if f.endswith(".trace")]
        check(res.returncode == 1 and len(traces) == 1, f"one trace kept\n{describe(cmd, res)}")
        again = [a.bsp_check, "replay", os.path.join(d, traces[0])]
        res2 = run(again)
        check(res2.returncode == 1 and b"error[schedule-divergence]" in res2.stdout + res2.stderr,
              f"the kept trace does not replay to the divergence\n{describe(again, res2)}")
    print("ok: the divergence's kept trace replays to the divergence")


def marked_line(source, rule):
    with open(source, encoding="utf-8") as f:
        for n, text in enumerate(f, start=1):
            if f"AT: {rule}" in text:
                return n
    raise Failure(f"{source}: no line marked 'AT: {rule}'")


def cmd_after_end(a):
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs", "after_end.c")
    for mode, rule in (("call", "api-misuse"), ("crash", "crash")):
        line = marked_line(source, rule)
        paths = {k: os.path.join(a.workdir, f"after_end_{mode}.{k}") for k in ("json", "sarif", "xml")}
        cmd = [a.bsp_check, "run", "-p", "2", "--seeds", "3", "--keep-going", "--no-keep-trace", "--json", paths["json"],
               "--sarif", paths["sarif"], "--junit", paths["xml"], a.after_end, mode]
        res = run(cmd)
        ctx = describe(cmd, res)
        check(res.returncode == 1, f"{mode}: expected exit 1\n{ctx}")
        if mode == "call":
            check(b"repeated 199 more times" in res.stderr, f"call: the repeats are not counted\n{ctx}")
            check(re.search(rb"called after bsp_end at [^\n]*\n  rule: [^\n]*\n  reproduce: ", res.stderr),
                  f"call: the finding after bsp_end lacks its rule and reproduce lines\n{ctx}")

        with open(paths["json"], encoding="utf-8") as f:
            runs = json.load(f)["runs"]
        check(len(runs) == 3, f"{mode}: expected 3 runs in the JSON\n{ctx}")
        for r in runs:
            found = [x for x in r.get("findings", []) if x.get("rule") == rule]
            check(found, f"{mode}: JSON run p={r.get('p')} seed={r.get('seed')} lacks {rule}: {r}\n{ctx}")
            if mode == "call":  # 200 calls at one line: one finding, the repeats counted
                check(len(found) == 1, f"call: {len(found)} findings for one line's 200 calls: {found}\n{ctx}")
            locs = found[0].get("locations", [])
            check(any(l.get("file", "").endswith("after_end.c") and l.get("line") == line for l in locs),
                  f"{mode}: the JSON finding is not located at after_end.c:{line}: {found[0]}")

        with open(paths["sarif"], encoding="utf-8") as f:
            results = json.load(f)["runs"][0]["results"]
        hits = [x for x in results if x.get("ruleId") == rule]
        check(hits, f"{mode}: SARIF has no {rule} result: {results}")
        regions = [l["physicalLocation"] for x in hits for l in x.get("locations", []) if "physicalLocation" in l]
        check(any(p["artifactLocation"]["uri"].endswith("after_end.c") and p.get("region", {}).get("startLine") == line
                  for p in regions), f"{mode}: SARIF result not located at after_end.c:{line}: {hits}")

        cases = ET.parse(paths["xml"]).getroot().iter("testcase")
        failures = [c.find("failure") for c in cases]
        check(len(failures) == 3 and all(x is not None and x.get("type") == rule for x in failures),
              f"{mode}: every JUnit test case must fail with type {rule}: "
              f"{[None if x is None else x.attrib for x in failures]}")
        check(all(f"after_end.c:{line}" in (x.text or "") for x in failures),
              f"{mode}: JUnit failure text does not name after_end.c:{line}")
        print(f"ok: {mode} after bsp_end is {rule} at after_end.c:{line} in JSON, SARIF and JUnit")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=["time_is_seed_independent", "after_end_in_every_report"])
    ap.add_argument("--bsp-check", required=True)
    ap.add_argument("--print-time", required=True)
    ap.add_argument("--after-end", required=True)
    ap.add_argument("--workdir", default=".")
    a = ap.parse_args()
    try:
        {"time_is_seed_independent": cmd_time, "after_end_in_every_report": cmd_after_end}[a.check](a)
    except Failure as f:
        print(f"FAIL: {f}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as t:
        print(f"FAIL: timed out: {t}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
