#!/usr/bin/env python3
"""run -j N: runs ahead on worker threads, taken in the session's order, so the output, the first
failure, schedule-divergence and the reports are those of -j 1; a piped stdin still reaches every
run; shards with -j are still the unsharded session.
Usage: jobs_test.py BSP-CHECK MESSAGE-ORDER HELLO BOUNDS-PUT INPROD"""
import json
import os
import re
import subprocess
import sys
import tempfile

bsp_check, message_order, hello, bounds_put, inprod = sys.argv[1:6]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


# Runs in a folder of its own: the first failing run's trace is kept in the current folder, which
# the tests running beside this one would otherwise share (and write the same trace names in).
own_folder = tempfile.mkdtemp()


def run(*args, stdin=None, input=None):
    p = subprocess.run([bsp_check, "run", *args], capture_output=True, timeout=600, stdin=stdin, input=input,
                       cwd=own_folder)
    # Times differ between sessions; nothing else may.
    text = re.sub(r"in [0-9.]+ s.*", "in T s", p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
    return p.returncode, text


def runs_of(path):
    with open(path) as f:
        report = json.load(f)
    for r in report["runs"]:
        r.pop("seconds", None)
    return report["runs"], report["failed"], report["total"]


with tempfile.TemporaryDirectory() as work:
    for prog, extra in ((message_order, ["-p", "2-4", "--seeds", "16"]),
                        (bounds_put, ["-p", "1-3", "--seeds", "8"]),
                        (hello, ["-p", "1-4", "--seeds", "20", "-v"])):
        outputs = {}
        for jobs in ("1", "2", "5"):
            for keep in ([], ["--keep-going"]):
                js = os.path.join(work, f"j{jobs}{len(keep)}.json")
                status, text = run("-j", jobs, "--json", js, *keep, *extra, prog)
                outputs[(jobs, len(keep))] = (status, text, runs_of(js))
        for keep in (0, 1):
            base = outputs[("1", keep)]
            for jobs in ("2", "5"):
                other = outputs[(jobs, keep)]
                name = f"{os.path.basename(prog)} -j {jobs}{' --keep-going' if keep else ''}"
                check(other[0] == base[0], f"{name}: exit {other[0]}, -j 1: {base[0]}")
                check(other[1] == base[1], f"{name}: the output differs from -j 1:\n{other[1][-600:]}\n---\n{base[1][-600:]}")
                check(other[2] == base[2], f"{name}: the JSON runs differ from -j 1")

    # stdin from a file and from a pipe reaches every run, with -j. inprod reads P and n from its
    # standard input and fails a run that finds it empty (exit 2): so every run must get it.
    data = os.path.join(work, "in.txt")
    with open(data, "w") as f:
        f.write("2\n100\n")
    with open(data) as f:
        status, text = run("-j", "3", "-p", "2", "--seeds", "30", inprod, stdin=f)
    check(status == 0, f"stdin from a file with -j 3: exit {status}: {text[-400:]}")
    status, text = run("-j", "3", "-p", "2", "--seeds", "30", inprod, input=b"2\n100\n")
    check(status == 0, f"stdin from a pipe with -j 3: exit {status}: {text[-400:]}")
    # The negative control: without the input, the same session fails.
    status, text = run("-j", "3", "-p", "2", "--seeds", "30", inprod, stdin=subprocess.DEVNULL)
    check(status == 1 and "expected P and n on standard input" in text,
          f"inprod without its input with -j 3: exit {status}, expected 1: {text[-400:]}")

    # Shards with -j: their JSON runs together are the unsharded session's.
    whole = os.path.join(work, "whole.json")
    run("-j", "1", "--keep-going", "--json", whole, "-p", "2-3", "--seeds", "20", message_order)
    parts = []
    for i in range(3):
        part = os.path.join(work, f"s{i}.json")
        run("-j", "2", "--keep-going", "--shard", f"{i}/3", "--json", part, "-p", "2-3", "--seeds", "20", message_order)
        parts += runs_of(part)[0]
    key = lambda r: (r["procs"], r["seed"])
    check(sorted(parts, key=key) == sorted(runs_of(whole)[0], key=key), "the shards with -j are not the session")

subprocess.run(["rm", "-rf", own_folder])
if failures:
    sys.exit(1)
print("ok: jobs")
