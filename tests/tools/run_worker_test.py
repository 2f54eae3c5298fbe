#!/usr/bin/env python3
"""Workers of the fork server (runtime/isolation/process_snapshot.hpp): a forked child runs many seeds in
turn, brought back to bsp_begin after each. A session's results must be exactly those of fresh
children (BSPCHECK_RUNS_PER_WORKER=1): the same exit status, output, findings and per-run JSON,
for clean programs, failing ones (a failing run costs a fresh child) and one that changes process
state after bsp_end; and the workers must really be reused.
Usage: run_worker_test.py BSP-CHECK PROCESS-STATE HELLO MESSAGE-ORDER BOUNDS-PUT"""
import json
import os
import re
import subprocess
import sys
import tempfile

bsp_check, process_state, hello, message_order, bounds_put = sys.argv[1:6]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


own_folder = tempfile.mkdtemp()


def run(args, runs_per_worker=1000, **given):
    # Set in both modes, with values of one length: the program's environment (and so its heap)
    # is the same.
    env = dict(os.environ)
    env["BSPCHECK_RUNS_PER_WORKER"] = f"{runs_per_worker:04d}"
    # process_state.c leaks on purpose (a worker must set its memory back); in a sanitizer build
    # LeakSanitizer would report those leaks (at a run's exit, or a worker's check of the run) and
    # fail the run. (Set whether or not the caller set ASAN_OPTIONS: leak detection is on by
    # default. A plain build's programs ignore it.)
    env["ASAN_OPTIONS"] = env["ASAN_OPTIONS"] + ":detect_leaks=0" if env.get("ASAN_OPTIONS") else "detect_leaks=0"
    js = os.path.join(own_folder, "report.json")
    if os.path.exists(js):
        os.unlink(js)
    given = given or {"stdin": subprocess.DEVNULL}
    p = subprocess.run([bsp_check, "run", "--json", js, *args], capture_output=True, timeout=600,
                       cwd=own_folder, env=env, **given)
    text = re.sub(r"in [0-9.]+ s.*", "in T s", p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
    if not os.path.exists(js):
        return p.returncode, text, None
    with open(js) as f:
        report = json.load(f)
    for r in report["runs"]:
        r.pop("seconds", None)
    return p.returncode, text, report["runs"]


# The runs mark themselves in /dev/shm, which they share with this test: a file a run writes in
# the working or temporary directory is its own (docs/semantics.md, "What a run sees of the machine").
with tempfile.TemporaryDirectory(dir="/dev/shm") as state_dir:
    cases = [
        ("hello", ["-j", "1", "-p", "1-4", "--seeds", "25", hello]),
        ("message_order", ["-j", "1", "--keep-going", "-p", "2-3", "--seeds", "20", message_order]),
        ("bounds_put", ["-j", "1", "--keep-going", "-p", "1-3", "--seeds", "6", bounds_put]),
        ("process_state", ["-j", "2", "-v", "-p", "1-3", "--seeds", "30", process_state, state_dir]),
    ]
    for name, args in cases:
        fresh = run(args, runs_per_worker=1)
        reused = run(args)
        check(reused[0] == fresh[0], f"{name}: exit {reused[0]} with workers, {fresh[0]} with fresh children")
        check(reused[1] == fresh[1], f"{name}: the output differs:\n{reused[1][-1500:]}\n--- fresh children:\n{fresh[1][-1500:]}")
        check(reused[2] == fresh[2], f"{name}: the JSON runs differ")

    # A run's report reaches the driver through the page it shares with the worker, or through
    # the report file when it is larger than the page's 1 MiB (bounds_put reports a finding per
    # process but one, about 290 bytes each in the run's report): either way the findings are
    # those of a run started anew, at p = 2000 (0.6 MB) and p = 4000 (1.2 MB).
    for p in (2000, 4000):
        served = run(["-j", "1", "--keep-going", "-p", str(p), "--seeds", "2", bounds_put])
        started = run(["-j", "1", "--keep-going", "--no-fork-server", "-p", str(p), "--seeds", "2", bounds_put])
        check(served[0] == started[0] == 1, f"bounds_put at p = {p}: exit {served[0]} served, {started[0]} started anew")
        check(served[2] is not None and served[2] == started[2], f"bounds_put at p = {p}: the JSON runs differ from runs started anew")
        check(served[2] is not None and all(len(r["findings"]) == p - 1 for r in served[2]),
              f"bounds_put at p = {p}: a run lacks findings")

    # process_state's own verdict: every run saw the state of a fresh process.
    for f in os.listdir(state_dir):
        os.unlink(os.path.join(state_dir, f))
    status, text, runs = run(["-j", "1", "-v", "-p", "1-2", "--seeds", "40", process_state, state_dir])
    check(status == 0, f"process_state: exit {status}\n{text[-2000:]}")
    lines = [l for l in text.splitlines() if "runs " in l and "greeting" in l]
    check(len(lines) == 80, f"process_state: {len(lines)} result lines for 80 runs")
    expected = re.compile(r"runs 1 greeting unchanged handler default env unset rand -?\d+ heap [-+]\d+ fd \d+ stack clean signal stack as at start stdout as opened stdin as given$")
    bad = [l for l in lines if not expected.search(l)]
    check(not bad, "process_state: a run saw the state another run left:\n" + "\n".join(bad[:5]))
    check(text.count("stderr of run 1") == 80, f"process_state: {text.count('stderr of run 1')} runs of 80 had their stderr captured")
    check(len({l.split("rand ")[1].split()[0] for l in lines}) == 1, "process_state: rand() differs between runs")
    check(len({l.split("fd ")[1].split()[0] for l in lines}) == 1, "process_state: the descriptor number differs between runs")
    # The 80 runs were made by a few workers (one per process count while nothing fails).
    for f in os.listdir(state_dir):
        os.unlink(os.path.join(state_dir, f))
    run(["-j", "1", "-p", "1-2", "--seeds", "40", process_state, state_dir])
    workers = len(os.listdir(state_dir))
    # A sanitizer build's workers come back too (runtime/isolation/sanitizer_shadow.hpp).
    check(1 <= workers <= 4, f"process_state: 80 runs were made by {workers} processes; workers are not reused")
    for f in os.listdir(state_dir):
        os.unlink(os.path.join(state_dir, f))
    run(["-j", "1", "-p", "1-2", "--seeds", "10", process_state, state_dir], runs_per_worker=1)
    # 20 runs and the determinism self-check's two of the first seed.
    check(len(os.listdir(state_dir)) >= 20, "BSPCHECK_RUNS_PER_WORKER=1: not one process per run")

    # A piped standard input whose writer has closed its end before the session starts (a
    # harness's pipe, `echo x |`) is all there: read into a file, given to the workers as a file
    # is. One whose writer is still open is streamed, a child started anew per run.
    def processes(**given):
        for f in os.listdir(state_dir):
            os.unlink(os.path.join(state_dir, f))
        status, text, _ = run(["-j", "1", "-p", "1-2", "--seeds", "10", process_state, state_dir], **given)
        check(status == 0, f"process_state with a piped input: exit {status}\n{text[-1000:]}")
        return len(os.listdir(state_dir)), "is a pipe its writer still holds open" in text

    closed, noted = processes(input=b"the whole input\n")
    check(1 <= closed <= 4, f"a pipe closed by its writer: 20 runs were made by {closed} processes; no workers")
    check(not noted, "a pipe closed by its writer: the session noted a streamed input")
    r, w = os.pipe()
    try:
        still_open, noted = processes(stdin=r)
    finally:
        os.close(r)
        os.close(w)
    check(still_open >= 20, f"a pipe its writer holds open: 20 runs were made by {still_open} processes, "
                            "not a child per run: it was not streamed")
    check(noted, "a pipe its writer holds open: the session did not note that its runs are started anew")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
