"""bsp registrations and bsp queue K, stopped where process 0 enters superstep 2 (a plain gdb with
break_superstep in BSPCHECK_OPTIONS): the table's one slot with every process's registration and
line, and process 0's six messages (two per sender, 4-byte tags 10*s+k, 24-byte payloads).
Usage: registrations_queue_test.py BSP-CHECK BSPCC CFLAGS LIBRARY-DIR."""
import os
import re
import sys

import debuglib

lib_dir = sys.argv.pop(4)
pieces = debuglib.plain_gdb("messages.c", "procs=3:seed=1:break_superstep=2:break_process=0",
                            ["run", "bsp registrations", "bsp queue 0", "bsp queue 1"], lib_dir, sys.argv[3].split())
_, _, regs, queue0, queue1 = pieces
with open(os.path.join(debuglib.HERE, "messages.c")) as f:
    push = next(n for n, line in enumerate(f, 1) if "TAG:push" in line)
for pid in range(3):
    if not re.search(r"process %d: 0x[0-9a-f]+ \(table\), 16 bytes, registered at \S*messages\.c:%d" % (pid, push), regs):
        debuglib.fail("bsp registrations does not show process %d's registration of table:\n%s" % (pid, regs))
if "process 0: 6 message(s) to move in superstep 2 (tag size 4 bytes)" not in queue0:
    debuglib.fail("bsp queue 0 should list six messages:\n" + queue0)
tags = sorted(re.findall(r"from process (\d), tag ([0-9a-f]{8}), payload 24 bytes", queue0))
expected = sorted((str(s), (10 * s + k).to_bytes(4, "little").hex()) for s in range(3) for k in range(2))
if tags != expected:
    debuglib.fail("bsp queue 0 shows tags %s, expected %s:\n%s" % (tags, expected, queue0))
if "process 1: 0 message(s)" not in queue1:
    debuglib.fail("process 1 has no message:\n" + queue1)
print("registrations and queue: ok")
