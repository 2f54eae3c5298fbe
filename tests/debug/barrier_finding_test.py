"""A finding raised at the barrier (put-collision, kept with --werror) involves several processes:
`bsp-check debug` stops in the barrier and lists each involved process's frame in the program, at
its bsp_sync, then shows the finding's first process. Usage: barrier_finding_test.py BSP-CHECK
BSPCC CFLAGS."""
import os
import re
import subprocess

import debuglib

bsp_check, work, prog, source = debuglib.build_example("checks/put_collision.c")
with open(source) as f:
    lines = f.read().splitlines()
sync_line = next(n for n, line in enumerate(lines, 1) if "BUG: put-collision" in line) + 1

trace = os.path.join(work, "run.trace")
r = subprocess.run([bsp_check, "run", "-p", "3", "--seed", "3", "--werror", "--trace", trace, prog],
                   capture_output=True, text=True, cwd=work)
if r.returncode != 1 or "put-collision" not in r.stderr:
    debuglib.fail("the run should fail with put-collision under --werror (exit %d):\n%s" % (r.returncode, r.stderr))
env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))
g = subprocess.run([bsp_check, "debug", trace, "--", "-batch", "-nx"], stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, text=True, cwd=work, env=env, timeout=240)
out = g.stdout
m = re.search(r"bsp-check finding \[put-collision\] superstep 1, processes ([\d, ]+):", out)
if not m:
    debuglib.fail("the put-collision finding is not printed at the stop:\n" + out)
involved = [int(k) for k in m.group(1).split(", ")]
if "[bsp: the finding involves processes" not in out:
    debuglib.fail("the involved processes' frames are not listed:\n" + out)
for k in involved:
    if not re.search(r"^  process %d \(in bsp_sync, superstep 1\): main \(\) at \S*put_collision\.c:%d$" %
                     (k, sync_line), out, re.M):
        debuglib.fail("process %d's frame (main at its bsp_sync, line %d) is not listed:\n%s" % (k, sync_line, out))
first = re.search(r"\n    at \S+ \(process (\d+), bsp_put\)", out)
if not first or "[bsp process %s, superstep 1]" % first.group(1) not in out:
    debuglib.fail("the finding's first process is not the one shown after the list:\n" + out)
print("barrier finding: ok (processes %s listed)" % involved)
