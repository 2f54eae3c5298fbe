"""Stepping over BSPlib calls stays in the same process: from the finding's stop, bsp finish-call
returns to process 1's main after its bsp_put (at the bsp_sync line that follows it), and next
over that bsp_sync, which switches to process 0 and passes the barrier, stops at the next line
of process 1, now in superstep 4."""
import debuglib

s = debuglib.Session()
_, finish, step, info = s.gdb(["bsp finish-call", "next", "info bsp"])
last = debuglib.tag_line("last-sync")
if debuglib.program_line(finish) != last:
    debuglib.fail("bsp finish-call should return to main, at line %d:\n%s" % (last, finish))
if not step.lstrip().startswith("%d\t" % (last + 1)):
    debuglib.fail("next over bsp_sync should reach line %d in the same process:\n%s" % (last + 1, step))
rows = debuglib.info_rows(info)
if rows.get(1, ("",))[0] != "running" or rows[1][1] != 4:
    debuglib.fail("process 1 should run in superstep 4 after the barrier:\n" + info)
print("next stays in the process: ok")
