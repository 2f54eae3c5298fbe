#!/usr/bin/env python3
"""Workers of the fork server in a program built with AddressSanitizer (runtime/isolation/
sanitizer_shadow.hpp): a worker brings the sanitizer's shadow and allocator back to bsp_begin
after each run and checks each run for leaks itself, so a session's results must be exactly those
of fresh children (BSPCHECK_RUNS_PER_WORKER=1), run for run: a leak (LeakSanitizer) or an
out-of-bounds read (AddressSanitizer) of any run reaches that run's report and no other's, and the
workers are really reused.
Usage: sanitized_worker_test.py BSP-CHECK WORKER-FINDINGS"""
import json
import os
import subprocess
import sys
import tempfile

bsp_check, program = sys.argv[1:3]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(state_dir, mode, runs_per_worker, seeds=12):
    for f in os.listdir(state_dir):
        os.unlink(os.path.join(state_dir, f))
    env = dict(os.environ)
    env["BSPCHECK_RUNS_PER_WORKER"] = f"{runs_per_worker:04d}"  # one length: the same environment
    env.pop("ASAN_OPTIONS", None)  # leak detection on, as by default
    with tempfile.TemporaryDirectory() as cwd:
        js = os.path.join(cwd, "report.json")
        p = subprocess.run([bsp_check, "run", "-j", "1", "--keep-going", "-p", "3", "--seeds", str(seeds),
                            "--json", js, program, state_dir, mode], capture_output=True, timeout=600, cwd=cwd,
                           env=env)
        text = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
        runs = json.load(open(js))["runs"] if os.path.exists(js) else []
    outcome = [(r["seed"], r["exit_status"], sorted(f["rule"] for f in r["findings"])) for r in runs]
    return outcome, text, len(os.listdir(state_dir))


# The runs mark themselves in /dev/shm, which they share with this test: a file a run writes in
# the working or temporary directory is its own (docs/semantics.md, "What a run sees of the machine").
with tempfile.TemporaryDirectory(dir="/dev/shm") as state_dir:
    # The read past a block's end is AddressSanitizer's report in a plain build's program, and
    # UndefinedBehaviorSanitizer's (which checks the object's size first) in a sanitizer build:
    # either way a crash finding of the process that made it.
    for mode, marker in (("leak", "ERROR: LeakSanitizer: detected memory leaks"), ("overflow", "error[crash]")):
        fresh, fresh_text, _ = run(state_dir, mode, 1)
        reused, text, processes = run(state_dir, mode, 1000)
        failed = [seed for seed, status, _ in reused if status != 0]
        check(len(reused) == 12, f"{mode}: {len(reused)} runs reported of 12\n{text[-2000:]}")
        check(0 < len(failed) < len(reused), f"{mode}: runs failed: {failed}; the seed must decide")
        check(reused == fresh, f"{mode}: the runs differ from fresh children's:\n{reused}\n--- fresh:\n{fresh}")
        check(marker in text, f"{mode}: the sanitizer's report is not shown:\n{text[-2000:]}")
        # A worker survives a leak; a crash ends it. Either way the runs that passed were made by
        # workers that had made runs before (fewer processes than runs).
        check(processes < len(reused), f"{mode}: {len(reused)} runs made by {processes} processes")
        if mode == "overflow":
            check(all("crash" in rules for _, status, rules in reused if status != 0),
                  f"{mode}: a failing run lacks its crash finding: {reused}")
        if mode == "leak":
            check(all(status == 1 for seed, status, _ in reused if seed in failed),
                  f"{mode}: a leaking run's exit status is not LeakSanitizer's 1: {reused}")
            # A run after a leaking one in the same worker: its leak-free run is reported clean.
            after = [seed for seed in range(2, 13) if seed - 1 in failed and seed not in failed]
            check(after, f"{mode}: no clean run follows a leaking one among seeds 1..12: {failed}")
    # Without findings, a few workers make all the runs: one worker makes the 20 runs and the
    # determinism self-check two more (fresh, recorded), 3 processes; fresh children would be 22.
    # A worker that cannot bring one run back (a mapping the run made that the plan cannot undo)
    # ends and the server forks the next: seen once in CI, so one or two such ends are allowed.
    clean, text, processes = run(state_dir, "none", 1000, seeds=20)
    check(all(status == 0 for _, status, _ in clean) and len(clean) == 20, f"none: {clean}\n{text[-2000:]}")
    check(1 <= processes <= 5, f"none: 20 runs made by {processes} processes; workers are not reused\n{text[-2000:]}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
