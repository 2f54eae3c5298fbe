#!/usr/bin/env python3
"""cBSP and BSPk under replay and explore: their calls are trace records, checked call for call by
bsp-check replay, and every freedom they draw (arrival order, handler order, collision winner,
receive order) is a choice of the schedule that explore drives.
Usage: local_sync_explore_test.py BSP-CHECK BSPCC PROGRAMS-DIR EXAMPLES-BIN-DIR [CFLAGS]"""
import os
import subprocess
import sys
import tempfile

bsp_check, bspcc, programs, examples = sys.argv[1:5]
cflags = sys.argv[5].split() if len(sys.argv) > 5 else []
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def bsp(*args, cwd=None):
    p = subprocess.run([bsp_check, *args], capture_output=True, timeout=600, cwd=cwd)
    return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")


cbsp_gauss = os.path.join(examples, "cbsp", "gauss")
cbsp_broadcast = os.path.join(examples, "cbsp", "broadcast")
cbsp_late = os.path.join(examples, "cbsp", "buggy", "broadcast_late")
bspk_inprod = os.path.join(examples, "bspk", "inprod")
bspk_expect = os.path.join(examples, "bspk", "buggy", "inprod_expect")

with tempfile.TemporaryDirectory() as work:
    # A recorded run replays clean, call for call; the trace holds the cBSP/BSPk calls.
    for prog, seed in ((cbsp_gauss, 3), (cbsp_broadcast, 5), (bspk_inprod, 7)):
        name = os.path.basename(prog)
        trace = os.path.join(work, name + ".trace")
        status, out = bsp("run", "-p", "4", "--seed", str(seed), "--trace", trace, prog)
        check(status == 0, f"{name}: run exit {status}: {out[-500:]}")
        status, out = bsp("replay", trace)
        check(status == 0 and "replay-divergence" not in out, f"{name}: replay exit {status}: {out[-500:]}")
        status, show = bsp("show", trace)
        word = "cBSP_nsync" if "cbsp" in prog else "bspk_sync"
        check(status == 0 and word in show, f"{name}: show does not see {word}: {show[:800]}")
    # Another program under the same trace: the first different call is a divergence.
    status, out = bsp("replay", os.path.join(work, "gauss.trace"), "--", cbsp_broadcast)
    check(status == 1 and "replay-divergence" in out and "cBSP_" in out,
          f"another program replays clean? exit {status}: {out[-600:]}")

    # explore: the buggy twins fail, the correct examples do not.
    for prog, rule in ((cbsp_late, "cbsp-late-message"), (bspk_expect, "bspk-count-mismatch")):
        status, out = bsp("explore", "-p", "4", "--trace-dir", work, prog)
        check(status == 1 and rule in out, f"{os.path.basename(prog)}: explore exit {status}: {out[-800:]}")
    for prog in (cbsp_gauss, cbsp_broadcast, bspk_inprod):
        status, out = bsp("explore", "-p", "3", "--bound", "1", "--max-runs", "300", prog)
        check(status == 0 and "none fails" in out, f"{os.path.basename(prog)}: explore exit {status}: {out[-800:]}")

    # Orders the papers leave free: only a deviation from the default schedule shows the bug, so
    # explore finds it, and its kept trace replays to the same failure.
    for source, kind in (("cbsp_handler_order.c", "write order"), ("bspk_recv_order.c", "message order")):
        name = source[:-2]
        exe = os.path.join(work, name)
        subprocess.run([bspcc, *cflags, os.path.join(programs, source), "-o", exe], check=True)
        status, out = bsp("explore", "-p", "3", "--bound", "1", "--trace-dir", work, exe)
        check(status == 1 and "with abort" in out and kind in out and "1 non-default choice" in out,
              f"{name}: explore exit {status}: {out[-800:]}")
        trace = os.path.join(work, f"{name}-p3-explore.trace")
        check(os.path.exists(trace), f"{name}: no trace kept: {os.listdir(work)}")
        if os.path.exists(trace):
            status, out = bsp("replay", trace)
            check(status == 1 and "error[abort]" in out and "replay-divergence" not in out,
                  f"{name}: the kept trace does not replay the failure: exit {status}: {out[-600:]}")
        # The default schedule alone does not fail.
        status, out = bsp("explore", "-p", "3", "--bound", "0", exe)
        check(status == 0, f"{name}: the default schedule fails: exit {status}: {out[-500:]}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("ok")
