"""A schedule-divergence's kept trace: `bsp-check debug` stops where the first differing line is
printed, in the process that prints it, with the finding naming that line, and the program's
variables show why (examples/buggy/message_order.c: `left` holds the value that was printed, not
the left neighbour's). `bsp-check replay` of the same trace reports the divergence at that line
too. Usage: across_runs_stop_test.py BSP-CHECK BSPCC CFLAGS."""
import os
import re
import subprocess

import debuglib

bsp_check, work, prog, source = debuglib.build_example("buggy/message_order.c")
with open(source) as f:
    printf_line = next(n for n, line in enumerate(f, 1) if "printf(" in line)

r = subprocess.run([bsp_check, "run", "-p", "3", "--seeds", "40", prog], capture_output=True, text=True, cwd=work)
if r.returncode != 1 or "schedule-divergence" not in r.stderr:
    debuglib.fail("the session should find schedule-divergence (exit %d):\n%s" % (r.returncode, r.stderr))
m = re.search(r"trace: (\S+)", r.stderr)
if not m:
    debuglib.fail("no trace kept:\n" + r.stderr)
trace = os.path.join(work, m.group(1))

env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))
replay = subprocess.run([bsp_check, "replay", trace], capture_output=True, text=True, cwd=work, env=env)
found = re.search(r"process (\d+) prints line 1 of stdout otherwise than the reference run: this run prints "
                  r"\"message_order: pid \d+ left neighbour's value (\d+)\"", replay.stderr)
if replay.returncode != 1 or not found:
    debuglib.fail("the replay should report the divergence at the differing line (exit %d):\n%s" %
                  (replay.returncode, replay.stderr))
pid, printed = int(found.group(1)), int(found.group(2))

args = [bsp_check, "debug", trace, "--", "-batch", "-nx"]
for c in ["frame", "print left"]:
    args += ["-ex", "echo %s\\n" % debuglib.MARK, "-ex", c]
g = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=work, env=env, timeout=240)
pieces = g.stdout.split(debuglib.MARK + "\n")
if len(pieces) != 3:
    debuglib.fail("gdb did not run every command (exit %d):\n%s" % (g.returncode, g.stdout))
start, frame, left = pieces
if "bsp-check finding [schedule-divergence]" not in start or "prints line 1 of stdout" not in start:
    debuglib.fail("the divergence at its line is not printed at the stop:\n" + g.stdout)
if "[bsp process %d, superstep 1]" % pid not in start:
    debuglib.fail("not stopped in process %d, which prints the differing line:\n%s" % (pid, g.stdout))
if not re.search(r"main \(\) at \S*message_order\.c:%d\b" % printf_line, frame):
    debuglib.fail("the selected frame is not the printf at line %d:\n%s" % (printf_line, g.stdout))
if debuglib.printed_value(left) != printed:
    debuglib.fail("print left should show %d, the value printed:\n%s" % (printed, g.stdout))
print("stop at a divergence's differing line: ok (process %d, left = %d)" % (pid, printed))
