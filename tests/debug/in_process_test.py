"""The in-process C++ API under gdb (a GoogleTest calling bspcheck::run, tests/debug/in_process.cpp):
after `start` loads the runtime (and with it the extension), `bsp break 2 1` stops where process 1
enters superstep 2; `info bsp` lists the three processes; each process's locals are its own (`mine`
is 100 + pid, `from_left` the left neighbour's), and the test passes when continued.
Usage: in_process_test.py PROGRAM LIBRARY-DIR."""
import os
import re
import subprocess
import sys

import debuglib

prog, lib_dir = sys.argv[1], sys.argv[2]
debuglib.skip_unless_gdb_runs()
commands = ["start", "bsp break 2 1", "continue", "info bsp", "print mine", "bsp process 2", "print mine",
            "print from_left", "continue"]
args = ["gdb", "-q", "-batch", "-nx", "-iex", "add-auto-load-safe-path " + lib_dir]
for c in commands:
    args += ["-ex", "echo %s\\n" % debuglib.MARK, "-ex", c]
env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))
r = subprocess.run(args + [prog], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=240)
pieces = r.stdout.split(debuglib.MARK + "\n")
if len(pieces) != len(commands) + 1:
    debuglib.fail("gdb did not run every command (exit %d):\n%s" % (r.returncode, r.stdout))
_, _, armed, stop, info, mine1, shown, mine2, left2, end = pieces
if "bsp: will stop at superstep 2 (process 1)" not in armed:
    debuglib.fail("bsp break was not armed:\n" + r.stdout)
if "[bsp: process 1 enters superstep 2" not in stop:
    debuglib.fail("not stopped where process 1 enters superstep 2:\n" + r.stdout)
rows = {}
for line in info.splitlines():
    m = re.match(r"^[* ] (\d+)\s+(.+?)\s{2,}(\d+)\s", line)
    if m:
        rows[int(m.group(1))] = int(m.group(3))
if rows != {0: 2, 1: 2, 2: 2}:
    debuglib.fail("info bsp should list processes 0..2 in superstep 2, lists %s:\n%s" % (rows, info))
for text, want, what in [(mine1, 101, "process 1's mine"), (mine2, 102, "process 2's mine"),
                         (left2, 101, "process 2's from_left (process 1's value)")]:
    if debuglib.printed_value(text) != want:
        debuglib.fail("%s should be %d:\n%s" % (what, want, r.stdout))
if "[bsp process 2, superstep 2" not in shown:
    debuglib.fail("bsp process 2 did not show process 2:\n" + shown)
if "[  PASSED  ] 1 test." not in end:
    debuglib.fail("the test should pass when continued:\n" + r.stdout)
print("in-process API under gdb: ok")
